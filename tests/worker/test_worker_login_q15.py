"""Q15: a real bot worker process without its queue password, or with a wrong one, stops at
once with one clear line, and one with the right password runs."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest
from genji_worker.process import EXIT_LOGIN

from tests.support.testdb import WORKER_PASSWORD, WORKER_ROLE, Database, Server

pytestmark = pytest.mark.queue

INHERITED_CREDENTIALS = ("DATABASE_URL", "QUEUE_DATABASE_URL", "QUEUE_DATABASE_PASSWORD")


def _start_bot(tmp_path: Path, db: Database, server: Server, **env: str) -> subprocess.Popen[str]:
    base = {k: v for k, v in os.environ.items() if k not in INHERITED_CREDENTIALS}
    return subprocess.Popen(
        [sys.executable, "-m", "genji_devstack.recorder_worker", "bot"],
        env={
            **base,
            # The database's location only: the bot adds the worker login itself.
            "DATABASE_URL": f"postgresql://{server.host}:{server.port}/{db.name}",
            "GENJI_RECORDER_DIR": str(tmp_path / "effects"),
            "GENJI_QUEUE_DRAIN_TIMEOUT": "1",
            "PYTHONUNBUFFERED": "1",
            **env,
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _exited(process: subprocess.Popen[str]) -> tuple[int, list[str]]:
    output, _ = process.communicate(timeout=30)
    return process.returncode, output.splitlines()


def test_q15_bot_without_queue_password_exits_naming_it(
    tmp_path: Path, db: Database, pg_server: Server
) -> None:
    code, lines = _exited(_start_bot(tmp_path, db, pg_server))
    assert code == EXIT_LOGIN
    assert len(lines) == 1, lines
    assert "QUEUE_DATABASE_PASSWORD must be set" in lines[0]


def test_q15_bot_with_a_wrong_password_exits_on_the_refused_login(
    tmp_path: Path, db: Database, pg_server: Server
) -> None:
    wrong = "wrong-" + WORKER_PASSWORD
    code, lines = _exited(_start_bot(tmp_path, db, pg_server, QUEUE_DATABASE_PASSWORD=wrong))
    assert code == EXIT_LOGIN
    refused = [line for line in lines if "cannot log in to the queue database" in line]
    assert len(refused) == 1, lines
    assert f'password authentication failed for user "{WORKER_ROLE}"' in refused[0]
    assert not any("Traceback" in line or wrong in line for line in lines), lines


async def test_q15_bot_with_its_password_runs(
    tmp_path: Path, db: Database, pg_server: Server
) -> None:
    process = _start_bot(tmp_path, db, pg_server, QUEUE_DATABASE_PASSWORD=WORKER_PASSWORD)
    conn = await asyncpg.connect(db.dsn)
    try:
        deadline = time.monotonic() + 20
        while not await conn.fetchval("SELECT count(*) FROM queue_workers WHERE owner = 'bot'"):
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "the bot worker never registered"
            await asyncio.sleep(0.05)
    finally:
        await conn.close()
        process.send_signal(signal.SIGTERM)
    code, lines = _exited(process)
    assert code == 0, lines
