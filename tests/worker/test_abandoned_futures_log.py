"""A connection error nothing waits for any more (an execution cancelled with its lost queue
connection while its handler was connecting) is not reported as an error; any other
unretrieved error still is."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest
from genji_worker import pgqueuer_logs


def _abandon(loop: asyncio.AbstractEventLoop, error: Exception) -> None:
    future = loop.create_future()
    future.set_exception(error)
    del future
    gc.collect()


async def test_only_abandoned_connection_errors_are_quieted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    loop = asyncio.get_running_loop()
    pgqueuer_logs.install(loop)
    with caplog.at_level(logging.DEBUG):
        _abandon(loop, ConnectionError("unexpected connection_lost() call"))
        _abandon(loop, ValueError("a real bug"))
        _abandon(loop, TimeoutError("a handler's own timeout"))
        failed = loop.create_task(_fails_with(ConnectionError("a task of the process")))
        await asyncio.wait({failed})
        del failed
        gc.collect()

    seen = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert [(name, level) for name, level, _ in seen] == [
        ("genji.queue", "DEBUG"),
        ("asyncio", "ERROR"),
        ("asyncio", "ERROR"),
        ("asyncio", "ERROR"),
    ]
    assert "ConnectionError" in seen[0][2]
    assert "ValueError('a real bug')" in seen[1][2]
    assert "TimeoutError" in seen[2][2]
    assert "Task exception was never retrieved" in seen[3][2]


async def _fails_with(error: Exception) -> None:
    raise error
