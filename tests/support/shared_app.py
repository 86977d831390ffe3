"""Built apps lent out again and again: one per distinct settings, to one serving at a time.

Building the app (every route's handler and dependency graph, the OpenAPI plugins) costs
about a quarter of a second, more than most API tests take. A built app keeps nothing of the
test that served it: each serving runs the app's lifespan, which opens a new pool on the
database the settings name and closes it at the end, and the test database itself is fresh.
A second serving of the same settings while the first is still running builds its own app.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from genji_api.app import create_app
from genji_api.settings import ApiSettings
from litestar import Litestar

_idle: dict[ApiSettings, list[Litestar]] = {}
_retired: set[int] = set()


@contextmanager
def lent_app(settings: ApiSettings) -> Iterator[Litestar]:
    """An app built for `settings`, not served by anyone else until the block ends."""
    idle = _idle.setdefault(settings, [])
    app = idle.pop() if idle else create_app(settings)
    try:
        yield app
    finally:
        if id(app) in _retired:
            _retired.discard(id(app))
        else:
            idle.append(app)


def retire(app: Litestar) -> None:
    """Never lend `app` again (a server that did not stop may still be serving it)."""
    _retired.add(id(app))
