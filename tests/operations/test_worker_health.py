"""`python -m genji_worker.health`, the containers' health check, against real worker processes:
healthy only while the database shows the worker consuming, whatever the process looks like."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest
from genji_devstack.fleet import WorkerFleet, WorkerProcess
from genji_queue.worker_health import queue_worker_health
from genji_sdk import Owner
from genji_worker.health import check

from tests.support.harness import FAST_SETTINGS, eventually
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

STALE = timedelta(seconds=1.5)
HOST = os.uname().nodename


@pytest.fixture
async def fleet(db: Database, connect: Connect, tmp_path: Path) -> AsyncIterator[WorkerFleet]:
    owner = await connect()
    # Workers read the threshold when they connect and beat at a quarter of it.
    await owner.execute("UPDATE queue_settings SET stale_heartbeat = $1", STALE)
    workers = WorkerFleet(tmp_path / "logs", tmp_path / "effects", db.dsn)
    yield workers
    workers.kill_all()


def health(environment: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The health command with only the given environment (as a container's would be)."""
    return subprocess.run(
        [sys.executable, "-m", "genji_worker.health", *args],
        env={"PATH": os.environ["PATH"], **environment},
        capture_output=True,
        text=True,
        timeout=30,
    )


async def checked(
    capsys: pytest.CaptureFixture[str],
    environment: dict[str, str],
    owner: Owner,
    host: str = HOST,
    pid: int | None = None,
) -> tuple[int, str]:
    """The same check in this process (a fresh interpreter per probe is slow): status, line."""
    status = await check(owner, host, pid, environment)
    return status, capsys.readouterr().out


async def until_health(
    capsys: pytest.CaptureFixture[str], environment: dict[str, str], owner: Owner, wanted: int
) -> str:
    async def probe() -> str | None:
        status, out = await checked(capsys, environment, owner)
        return out if status == wanted else None

    return await eventually(probe, 15, f"the health check to exit {wanted}")


async def test_a_consuming_bot_worker_is_healthy_and_a_killed_one_is_not(
    db: Database, fleet: WorkerFleet, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = {"QUEUE_DATABASE_URL": db.worker_dsn}
    assert await checked(capsys, bot, "bot") == (
        1,
        f"bot worker on {HOST}: not registered in the queue database\n",
    )
    worker = await fleet.spawn("bot", db.worker_dsn, FAST_SETTINGS)
    result = await asyncio.to_thread(health, bot, "--owner", "bot")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "consuming" in result.stdout and db.worker_dsn not in result.stdout
    assert (await checked(capsys, bot, "bot", pid=worker.pid))[0] == 0
    assert (await checked(capsys, bot, "bot", pid=worker.pid + 1))[0] == 1
    assert (await checked(capsys, bot, "bot", host="another-host"))[0] == 1

    worker.kill()  # its liveness row stays, but its session is gone
    out = await until_health(capsys, bot, "bot", 1)
    assert "session has ended" in out


async def test_a_worker_process_that_is_up_but_silent_is_unhealthy(
    db: Database, connect: Connect, fleet: WorkerFleet, capsys: pytest.CaptureFixture[str]
) -> None:
    worker = await fleet.spawn("bot", db.worker_dsn, FAST_SETTINGS)
    bot = {"QUEUE_DATABASE_URL": db.worker_dsn}
    await until_health(capsys, bot, "bot", 0)
    os.kill(worker.pid, signal.SIGSTOP)  # the process and its session stay; the beats stop
    try:
        out = await until_health(capsys, bot, "bot", 1)
        assert "silent for" in out and "session has ended" not in out
        rows = await queue_worker_health(await connect(), "bot", HOST)
        assert [(r.pid, r.session_alive, r.consuming) for r in rows] == [(worker.pid, True, False)]
    finally:
        os.kill(worker.pid, signal.SIGCONT)
    await until_health(capsys, bot, "bot", 0)  # beating again


async def test_a_gracefully_stopped_worker_is_unhealthy(
    db: Database, fleet: WorkerFleet, capsys: pytest.CaptureFixture[str]
) -> None:
    worker: WorkerProcess = await fleet.spawn("api", db.dsn, FAST_SETTINGS)
    api = {"DATABASE_URL": db.dsn}
    assert (await checked(capsys, api, "api"))[0] == 0
    assert (await checked(capsys, {"QUEUE_DATABASE_URL": db.worker_dsn}, "bot"))[0] == 1
    assert worker.stop() == 0
    status, out = await checked(capsys, api, "api")
    assert status == 1 and "not registered" in out


async def test_the_worker_login_reads_only_bot_workers(
    db: Database, connect: Connect, capsys: pytest.CaptureFixture[str]
) -> None:
    worker = await connect("worker")
    assert await queue_worker_health(worker, "bot", HOST) == []
    with pytest.raises(asyncpg.InsufficientPrivilegeError):
        await queue_worker_health(worker, "api", HOST)
    status, out = await checked(capsys, {"QUEUE_DATABASE_URL": db.worker_dsn}, "api")
    assert status == 1 and "liveness query failed (InsufficientPrivilegeError)" in out


async def test_missing_or_refused_credentials_are_unhealthy_without_leaking_them(
    db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = await checked(capsys, {}, "bot")
    assert status == 1 and "QUEUE_DATABASE_URL" in out
    wrong = db.worker_dsn.replace("@", "x@", 1)
    refused = await asyncio.to_thread(health, {"QUEUE_DATABASE_URL": wrong}, "--owner", "bot")
    assert refused.returncode == 1 and "log in" in refused.stdout
    assert wrong not in refused.stdout + refused.stderr
