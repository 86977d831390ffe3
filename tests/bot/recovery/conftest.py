"""The recovery stack: the API and the recorded bot as child processes on a fresh database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from genji_api.auth import scopes
from genji_bot.settings import BotSettings
from genji_devstack.api_child import ApiChild
from genji_devstack.ports import free_port
from genji_devstack.recorder_port import RecorderPort

from tests.bot.bot_stack import BOT_USER_ID, FAST, BotStack, issue_bot_key
from tests.support.secrets_seen import issue_token
from tests.support.testdb import Connect, Database

from .recovery_stack import OPERATOR, RecoveryStack

# No client keeps a connection to an API process a test is about to kill.
NO_KEEPALIVE = httpx.Limits(max_keepalive_connections=0)


@pytest.fixture
async def recovery(db: Database, connect: Connect, tmp_path: Path) -> AsyncIterator[RecoveryStack]:
    """The API (with its worker) and the recorded bot, both serving when the test starts."""
    owner = await connect("owner")
    await owner.execute(
        "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada') "
        "ON CONFLICT (id) DO NOTHING",
        BOT_USER_ID,
    )
    superuser = await issue_token(owner, "superuser", superuser=True)
    operator_key = await issue_token(
        owner, "operator", scopes=frozenset({scopes.JOBS_READ, scopes.JOBS_MANAGE})
    )
    bot_key = await issue_bot_key(owner)
    api = ApiChild(
        db.dsn,
        tmp_path / "api.log",
        {
            **FAST,
            "BOT_USER_ID": str(BOT_USER_ID),
            "QUEUE_OPERATOR_IDS": str(OPERATOR),
            "API_POOL_MAX_SIZE": "4",
            "TOURNAMENT_OUTBOX_INTERVAL": "3600",
            # Nothing listens there: OCR is unavailable at once and runs go to manual review.
            "OCR_URL": f"http://127.0.0.1:{free_port()}",
            "OCR_TIMEOUT_SECONDS": "1",
        },
    )
    base = api.url + "/api/v3"
    async with (
        httpx.AsyncClient(
            base_url=base, headers={"X-API-KEY": superuser}, timeout=30, limits=NO_KEEPALIVE
        ) as http,
        httpx.AsyncClient(
            base_url=base, headers={"X-API-KEY": operator_key}, timeout=30, limits=NO_KEEPALIVE
        ) as operator,
    ):
        stack = RecoveryStack(
            bots=BotStack(
                url=api.url,
                http=http,
                owner=owner,
                recorder=RecorderPort(tmp_path / "effects"),
                bot_key=bot_key,
                worker_dsn=db.worker_dsn,
                settings=BotSettings(api_url=api.url, api_key=bot_key, bot_user_id=BOT_USER_ID),
            ),
            api=api,
            operator=operator,
            tmp=tmp_path,
        )
        try:
            await stack.start_all()
            yield stack
        finally:
            stack.stop_all()
