"""Q15: the clusters that get killed and restarted are durable, and they and `just up` use the
production logins: the owner migrates and runs the API worker, the bot logs in as the worker
role with its password."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from genji_api.auth import scopes
from genji_sdk.roles import OWNER_ROLE, WORKER_ROLE

from tests.support.harness import FAST_SETTINGS, Stack, eventually

# A whole `just up` stack with a deadline to come up, like test_local_stack.py.
pytestmark = [pytest.mark.queue, pytest.mark.alone]

DURABLE = "fsync=on synchronous_commit=on full_page_writes=on"
PASSFILE = re.compile(r"^export PGPASSFILE=(\S+)$", re.MULTILINE)
DATABASE_URL = re.compile(r"^export DATABASE_URL=(\S+)$", re.MULTILINE)


async def _settings(conn: asyncpg.Connection) -> str:
    names = ("fsync", "synchronous_commit", "full_page_writes")
    return " ".join([f"{name}={await conn.fetchval(f'SHOW {name}')}" for name in names])


async def test_q15_lifecycle_stack_is_durable_with_production_logins(stack: Stack) -> None:
    assert stack.cluster.durability == DURABLE
    owner = await stack.connect()
    try:
        assert await _settings(owner) == DURABLE
        row = await owner.fetchrow(
            "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user"
        )
        assert tuple(row) == (OWNER_ROLE, False)
    finally:
        await owner.close()
    worker = await asyncpg.connect(stack.worker_dsn)
    try:
        assert await worker.fetchval("SELECT current_user") == WORKER_ROLE
    finally:
        await worker.close()


def _just_up(log: Path, queue_password: str) -> subprocess.Popen[bytes]:
    """`just up` with its private cluster (no DATABASE_URL) and a known worker password."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL")},
        **FAST_SETTINGS,
        "QUEUE_DATABASE_PASSWORD": queue_password,
        "GENJI_RECORDER_DIR": str(log.parent / "effects"),
        "PYTHONUNBUFFERED": "1",
    }
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "genji_devstack.local_stack"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _pgpass_password(passfile: str) -> str:
    return Path(passfile).read_text().rsplit(":", 1)[1].strip()


async def test_q15_just_up_is_durable_with_production_logins(tmp_path: Path) -> None:
    queue_password = "queue-password-for-this-test"
    log = tmp_path / "up.log"
    up = _just_up(log, queue_password)
    try:

        async def ready() -> tuple[str, str] | None:
            assert up.poll() is None, log.read_text()
            passfile, dsn = PASSFILE.search(log.read_text()), DATABASE_URL.search(log.read_text())
            return (passfile.group(1), dsn.group(1)) if passfile and dsn else None

        passfile, dsn = await eventually(ready, 90, "`just up` to print its exports")
        assert ":" not in dsn.split("//", 1)[1].split("@", 1)[0], "a password in DATABASE_URL"
        owner_password = _pgpass_password(passfile)
        conn = await asyncpg.connect(dsn, passfile=passfile)
        try:

            async def logins() -> dict[str, str] | None:
                rows = await conn.fetch(
                    "SELECT application_name, usename FROM pg_stat_activity "
                    "WHERE application_name LIKE 'genji-%-worker'"
                )
                found = {r["application_name"]: r["usename"] for r in rows}
                return found if len(found) == 2 else None

            assert await eventually(logins, 30, "both workers to connect") == {
                "genji-bot-worker": WORKER_ROLE,
                "genji-api-worker": OWNER_ROLE,
            }
            assert await _settings(conn) == DURABLE
            bot_key = await conn.fetchrow(
                "SELECT t.is_superuser, t.scopes FROM auth.api_tokens t "
                "JOIN auth.users u ON u.id = t.user_id WHERE u.username = 'genji-bot'"
            )
            assert bot_key is not None
            assert (bot_key["is_superuser"], set(bot_key["scopes"])) == (False, set(scopes.BOT))
        finally:
            await conn.close()
        worker = await asyncpg.connect(
            re.sub(r"//[^@]+@", f"//{WORKER_ROLE}:{queue_password}@", dsn)
        )
        await worker.close()
    finally:
        up.send_signal(signal.SIGTERM)
        code = up.wait(60)
    output = log.read_text()
    assert code == 0, output
    assert queue_password not in output and owner_password not in output
    assert not Path(passfile).parent.exists(), "the private cluster outlived `just up`"
