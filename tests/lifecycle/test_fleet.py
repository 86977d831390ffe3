"""The worker fleet shared by lifecycle tests and benchmarks: hermetic environment, waiting for
registration, reporting a worker that died."""

from __future__ import annotations

import pytest
from genji_devstack.fleet import WorkerExited, worker_environment

from tests.support.harness import Stack


def test_worker_environment_drops_the_callers_queue_configuration() -> None:
    inherited = {
        "PATH": "/usr/bin",
        "GENJI_QUEUE_POLLING_FALLBACK": "30",
        "GENJI_TALLY_DSN": "postgresql://elsewhere/db",
        "GENJI_RECORDER_DIR": "/tmp/elsewhere",
        "QUEUE_DATABASE_URL": "postgresql://elsewhere/queue",
        "QUEUE_DATABASE_PASSWORD": "not-for-this-worker",
        "DATABASE_URL": "postgresql://elsewhere/api",
    }
    environment = worker_environment({"GENJI_QUEUE_DRAIN_TIMEOUT": "1"}, inherited)
    assert environment == {
        "PATH": "/usr/bin",
        "GENJI_QUEUE_DRAIN_TIMEOUT": "1",
        "PYTHONUNBUFFERED": "1",
    }


async def test_until_registered_returns_once_the_liveness_row_exists(stack: Stack) -> None:
    worker = stack.start_worker()
    await stack.fleet.until_registered(worker)
    pids = [row["pid"] for row in await stack.sql("SELECT pid FROM queue_workers")]
    assert pids == [worker.pid]


async def test_until_registered_reports_a_worker_that_exits(stack: Stack) -> None:
    worker = stack.fleet.start("nobody", stack.dsn)  # not an owner: the process refuses to run
    with pytest.raises(WorkerExited, match=r"usage: python -m genji_devstack\.recorder_worker"):
        await stack.fleet.until_registered(worker, deadline=20)
    assert worker.wait(5) == 1
