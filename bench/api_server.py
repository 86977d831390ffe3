"""The real API served for bench/api_submissions.py, with two timers added around it.

  request   whole-request server time: from the ASGI call's start until the response is sent
  enqueue   every call of the typed SQL enqueue wrappers (genji_queue.enqueue's enqueue_job_raw
            and genji_queue.enqueue_batch's enqueue_jobs), which the API's enqueue_job and
            enqueue_jobs, and so every producer, look up at call time

`GET /__bench/stats` returns both totals and their counts as JSON and `POST /__bench/reset`
zeroes them; both are answered before the application and counted by neither timer.

    python bench/api_server.py --database-url DSN --port N
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from dataclasses import asdict, dataclass
from typing import Any, ParamSpec, TypeVar

import genji_queue.enqueue
import genji_queue.enqueue_batch
import uvicorn
from genji_api.app import create_app
from genji_api.settings import ApiSettings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[..., Awaitable[None]]

P = ParamSpec("P")
T = TypeVar("T")

STATS_PATH = "/__bench/stats"
RESET_PATH = "/__bench/reset"


@dataclass
class Totals:
    requests: int = 0
    request_s: float = 0.0
    enqueues: int = 0
    enqueue_s: float = 0.0


def _timed(call: Callable[P, Awaitable[T]], totals: Totals) -> Callable[P, Coroutine[Any, Any, T]]:
    """`call`, adding each call's time to the enqueue totals."""

    async def timed(*args: P.args, **kwargs: P.kwargs) -> T:
        began = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            totals.enqueue_s += time.perf_counter() - began
            totals.enqueues += 1

    return timed


def time_enqueue(totals: Totals) -> None:
    """Replace genji_queue's enqueue_job_raw and enqueue_jobs with timed calls of themselves."""
    genji_queue.enqueue.enqueue_job_raw = _timed(genji_queue.enqueue.enqueue_job_raw, totals)
    genji_queue.enqueue_batch.enqueue_jobs = _timed(genji_queue.enqueue_batch.enqueue_jobs, totals)


class TimedApp:
    """Times every HTTP request of `app`; answers the bench paths itself."""

    def __init__(self, app: Asgi, totals: Totals) -> None:
        self.app = app
        self.totals = totals

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] in (STATS_PATH, RESET_PATH):
            await self.answer(scope["path"], send)
            return
        began = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            self.totals.request_s += time.perf_counter() - began
            self.totals.requests += 1

    async def answer(self, path: str, send: Send) -> None:
        if path == RESET_PATH:
            for name, value in asdict(Totals()).items():
                setattr(self.totals, name, value)
        body = json.dumps(asdict(self.totals)).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    totals = Totals()
    time_enqueue(totals)
    app = create_app(ApiSettings(database_url=args.database_url, run_worker=False))
    uvicorn.run(
        TimedApp(app, totals),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
