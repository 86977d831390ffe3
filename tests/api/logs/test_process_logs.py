"""`python -m genji_api` logs every line, uvicorn's included, in the one format (or as JSON lines
when GENJI_LOG_FORMAT=json); the bot's alert feed polls and health checks make no INFO line while
other requests keep one; an unknown GENJI_LOG_FORMAT stops the API and the bot at start-up with
the bad-settings status."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from genji_devstack.api_child import ApiChild

from tests.support.secrets_seen import issue_token
from tests.support.testdb import Connect, Database

TEXT_LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+ \S"
)
FEED = "/api/v3/internal/alerts"
BAD_SETTINGS = 2


async def _api(db: Database, log: Path, **environment: str) -> ApiChild:
    api = ApiChild(db.dsn, log, environment, worker=False).start()
    await api.until_ready()
    return api


async def _requests(api: ApiChild, key: str) -> None:
    """Routine polls, then one ordinary request, and wait until its access line is written."""
    async with httpx.AsyncClient(base_url=api.url, timeout=10) as http:
        for _ in range(3):
            (await http.get(FEED, headers={"X-API-KEY": key})).raise_for_status()
            (await http.get("/healthcheck")).raise_for_status()
        assert (await http.get("/api/v3/no-such-route-here")).status_code == 404


@pytest.fixture
async def key(connect: Connect) -> str:
    owner = await connect("owner")
    return await issue_token(owner, "log-reader", superuser=True)


@pytest.fixture
async def started(db: Database, tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    children: list[ApiChild] = []

    async def start(**environment: str) -> ApiChild:
        children.append(await _api(db, tmp_path / f"api-{len(children)}.log", **environment))
        return children[-1]

    yield start
    for child in children:
        child.stop()


def _stopped_log(api: ApiChild) -> list[str]:
    api.stop()
    return api.log_path.read_text().splitlines()


async def test_api_process_logs_one_text_format_and_routine_polls_below_info(
    started: Callable[..., Any], key: str
) -> None:
    api = await started()
    await _requests(api, key)
    lines = _stopped_log(api)
    assert [line for line in lines if not TEXT_LINE.match(line)] == []
    loggers = {line.split(" ", 4)[3] for line in lines}
    assert {"uvicorn.error", "uvicorn.access"} <= loggers, loggers
    access = [line for line in lines if " uvicorn.access " in line]
    assert any("/api/v3/no-such-route-here" in line and " INFO " in line for line in access)
    assert [line for line in access if FEED in line or "/healthcheck" in line] == []
    assert key not in "\n".join(lines)


async def test_api_process_logs_json_lines_when_asked(
    started: Callable[..., Any], key: str
) -> None:
    api = await started(GENJI_LOG_FORMAT="json")
    await _requests(api, key)
    records = [json.loads(line) for line in _stopped_log(api)]
    assert records
    for record in records:
        assert {"time", "level", "logger", "message"} <= set(record), record
    loggers = {record["logger"] for record in records}
    assert {"uvicorn.error", "uvicorn.access"} <= loggers, loggers
    access = [r["message"] for r in records if r["logger"] == "uvicorn.access"]
    assert any("/api/v3/no-such-route-here" in message for message in access), access
    assert [message for message in access if FEED in message] == []


@pytest.mark.parametrize("module", ["genji_api", "genji_bot"])
def test_an_unknown_log_format_exits_with_the_bad_settings_status(module: str) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GENJI_", "DISCORD_"))},
        "GENJI_LOG_FORMAT": "xml",
        "DISCORD_TOKEN": "not-used-before-the-settings-are-read",
    }
    done = subprocess.run(
        [sys.executable, "-m", module], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == BAD_SETTINGS, done.stderr
    assert "GENJI_LOG_FORMAT='xml' is not a log format" in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("command", "typo", "meant"),
    [
        (["genji_api"], "GENJI_API_WORKR", "GENJI_API_WORKER"),
        (["genji_api"], "GENJI_QUEUE_RETRY_DELAY", "GENJI_QUEUE_RETRY_DELAYS"),
        (["genji_bot"], "GENJI_API_TIMOUT", "GENJI_API_TIMEOUT"),
        (["genji_devstack.recorder_worker", "bot"], "GENJI_METRICS_PORTS", "GENJI_METRICS_PORT"),
    ],
)
def test_a_mistyped_genji_setting_exits_2_naming_the_nearest_known_one(
    command: list[str], typo: str, meant: str, tmp_path: Path
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GENJI_", "DISCORD_"))},
        # Every other setting is usable, so only the unknown name can stop the start-up.
        "DATABASE_URL": "postgresql://genjishimada@127.0.0.1:1/unused",
        "QUEUE_DATABASE_PASSWORD": "unused",
        "GENJI_API_KEY": "unused",
        "GENJI_RECORDER_DIR": str(tmp_path),
        "DISCORD_TOKEN": "not-used-before-the-settings-are-read",
        "API_PORT": "0",
        typo: "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", *command], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == BAD_SETTINGS, done.stderr
    assert f"unknown setting {typo}; did you mean {meant}?" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
