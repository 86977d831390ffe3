from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.artifacts import keep_log
from tests.support.harness import DATABASE, Stack, new_stack
from tests.support.queue_tables import capture


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    """A private cluster per test: fault cases stop, crash and restart it freely."""
    owned = new_stack(tmp_path)
    try:
        yield owned
    finally:
        owned.stop_all()
        if owned.cluster.is_running():
            capture(owned.cluster.admin_dsn(DATABASE), DATABASE)
        keep_log(owned.cluster.logfile, "server.log")
        owned.cluster.destroy()
