"""Q04: the API process is SIGKILLed after accepting an OCR submission; OCR or manual review
resumes from durable state when it comes back.

Two windows: killed after the submission committed but before any worker took the OCR job
(the first API process serves HTTP only), and killed while its worker is inside the OCR call
(the fake OCR service holds the request, so the kill lands mid-call for certain).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from genji_devstack.api_child import ApiChild
from genji_devstack.fake_ocr import FakeOcr

from tests.support.harness import FAST_SETTINGS, Stack, eventually
from tests.support.secrets_seen import issue_token

pytestmark = pytest.mark.queue_fault

BOT_USER_ID = 10**18
PLAYER = 10**18 + 7
CODE = "KILL4"


@pytest.fixture
def fake_ocr() -> Iterator[FakeOcr]:
    with FakeOcr() as ocr:
        yield ocr


async def _seed(conn: asyncpg.Connection) -> str:
    await conn.execute(
        "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada'), ($2, 'Runner')",
        BOT_USER_ID,
        PLAYER,
    )
    await conn.execute(
        "INSERT INTO users.overwatch_usernames (user_id, username, is_primary) "
        "VALUES ($1, 'RUNNER', true)",
        PLAYER,
    )
    map_id = await conn.fetchval(
        "INSERT INTO core.maps (code, map_name, official, playtesting, hidden) "
        "VALUES ($1, 'Hanamura', true, 'Approved', false) RETURNING id",
        CODE,
    )
    await conn.execute(
        "INSERT INTO maps.creators (map_id, user_id, is_primary) VALUES ($1, $2, true)",
        map_id,
        BOT_USER_ID,
    )
    return await issue_token(conn, "q04", superuser=True)


async def _submit(api: ApiChild, key: str, screenshot: str) -> dict[str, Any]:
    async with httpx.AsyncClient(headers={"X-API-KEY": key}) as client:
        response = await client.post(
            f"{api.url}/api/v3/completions/",
            json={"code": CODE, "user_id": PLAYER, "time": 42.5, "screenshot": screenshot},
        )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _start(stack: Stack, tmp_path: Path, ocr: FakeOcr, *, worker: bool) -> ApiChild:
    return ApiChild(
        stack.dsn,
        tmp_path / "api.log",
        {
            **FAST_SETTINGS,
            "OCR_URL": ocr.url,
            "OCR_TIMEOUT_SECONDS": "1.5",
            "BOT_USER_ID": str(BOT_USER_ID),
            "TOURNAMENT_OUTBOX_INTERVAL": "3600",
        },
        worker=worker,
    ).start()


async def test_killed_after_accepting_q04(stack: Stack, tmp_path: Path, fake_ocr: FakeOcr) -> None:
    conn = await stack.connect()
    key = await _seed(conn)
    api = _start(stack, tmp_path, fake_ocr, worker=False)
    try:
        await api.until_ready()
        screenshot = "https://img.example/ocr-match-q04.png"
        body = await _submit(api, key, screenshot)
        completion_id = body["completion_id"]
        api.kill()
        # Committed before the kill: the completion and its OCR job, nothing run yet.
        assert (
            await conn.fetchval("SELECT status FROM jobs WHERE action = 'completion.ocr.requested'")
            == "queued"
        )
        assert fake_ocr.request_counts() == {}

        api = _start(stack, tmp_path, fake_ocr, worker=True)
        await api.until_ready()

        async def verified() -> bool:
            return bool(
                await conn.fetchval(
                    "SELECT verified FROM core.completions WHERE id = $1", completion_id
                )
            )

        await eventually(verified, 30, "the completion auto-verified after the restart")
        assert fake_ocr.request_counts() == {screenshot: 1}
        assert (
            await conn.fetchval(
                "SELECT count(*) FROM jobs WHERE action = 'api.completion.verification'"
            )
            == 1
        )
        assert (
            await conn.fetchval(
                "SELECT count(*) FROM jobs WHERE action = 'api.completion.submission'"
            )
            == 0
        )
    finally:
        api.stop()


async def test_killed_during_the_ocr_call_q04(
    stack: Stack, tmp_path: Path, fake_ocr: FakeOcr
) -> None:
    conn = await stack.connect()
    key = await _seed(conn)
    api = _start(stack, tmp_path, fake_ocr, worker=True)
    try:
        await api.until_ready()
        screenshot = "https://img.example/ocr-slow-q04.png"
        body = await _submit(api, key, screenshot)
        completion_id = body["completion_id"]

        async def in_flight() -> bool:
            return fake_ocr.request_counts().get(screenshot, 0) == 1

        await eventually(in_flight, 20, "the worker inside the OCR call")
        api.kill()
        # The OCR job is still claimed by the dead process, and nothing was decided.
        assert (
            await conn.fetchval(
                "SELECT q.status FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id "
                "WHERE j.action = 'completion.ocr.requested'"
            )
            == "picked"
        )
        assert await conn.fetchval("SELECT count(*) FROM completions.ocr_decisions") == 0

        api = _start(stack, tmp_path, fake_ocr, worker=True)
        await api.until_ready()

        async def fell_back() -> bool:
            return bool(
                await conn.fetchval(
                    "SELECT count(*) FROM jobs WHERE action = 'api.completion.submission'"
                )
            )

        # Reclaimed after the stale threshold; the slow OCR times out; manual review follows.
        await eventually(fell_back, 40, "the manual-review fallback after the restart")
        assert fake_ocr.request_counts()[screenshot] == 2
        assert (
            await conn.fetchval(
                "SELECT outcome FROM completions.ocr_decisions WHERE completion_id = $1",
                completion_id,
            )
            == "error"
        )
        assert (
            await conn.fetchval(
                "SELECT verified_by FROM core.completions WHERE id = $1", completion_id
            )
            is None
        )
        await stack.until_status(
            await conn.fetchval("SELECT id FROM jobs WHERE action = 'completion.ocr.requested'"),
            "succeeded",
            30,
        )
    finally:
        api.stop()
