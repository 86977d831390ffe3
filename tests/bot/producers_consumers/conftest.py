"""Q26 fixtures: one served stack per test module, and a fresh `flow` for each case.

Starting a database clone and the served API costs about two seconds, so a module shares one:
its own clone of the migrated template, the API served on it with its worker (the three
continuations and the tournament schedule) at the short test intervals and a fake OCR service,
and the bot's key. Each case still gets its own recorder directory (its own recorded Discord
world), its own bot worker, fresh rows, and sees only the jobs created after it began.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import pytest_asyncio
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings
from genji_bot.settings import BotSettings
from genji_devstack.fake_ocr import FakeOcr
from genji_devstack.recorder_port import RecorderPort
from psycopg import connect, sql
from pytest_postgresql.janitor import DatabaseJanitor

from tests.bot.bot_stack import BOT_USER_ID, FAST, BotStack, issue_bot_key
from tests.bot.q26_flow import Flow
from tests.support.producer_cases import ProducerEnv
from tests.support.secrets_seen import issue_token
from tests.support.served_api import served_api
from tests.support.testdb import OWNER_ROLE, Server
from tests.support.testdb import Database as TestDatabase

OUTBOX_INTERVAL_SECONDS = 0.3


@pytest.fixture(scope="module")
def module_db(
    request: pytest.FixtureRequest, postgresql_noproc: Any, pg_server: Server
) -> Iterator[TestDatabase]:
    """A clone of the migrated template for this module, owned by the owner role."""
    name = f"genji_q26_{request.module.__name__.removeprefix('test_q26_')}"[:60]
    janitor = DatabaseJanitor(
        user=postgresql_noproc.user,
        host=postgresql_noproc.host,
        port=postgresql_noproc.port,
        dbname=name,
        template_dbname=postgresql_noproc.template_dbname,
        password=postgresql_noproc.password,
    )
    janitor.drop()
    with janitor:
        with connect(pg_server.admin_dsn(), autocommit=True) as admin:
            admin.execute(
                sql.SQL("ALTER DATABASE {} OWNER TO {}").format(
                    sql.Identifier(name), sql.Identifier(OWNER_ROLE)
                )
            )
        yield TestDatabase(
            dsn=pg_server.owner_dsn(name),
            worker_dsn=pg_server.worker_dsn(name),
            name=name,
            admin_dsn=pg_server.admin_dsn(name),
        )


@pytest.fixture(scope="module")
def module_served(module_db: TestDatabase) -> Iterator[str]:
    with pytest.MonkeyPatch.context() as patch, FakeOcr() as ocr:
        for name, value in FAST.items():
            patch.setenv(name, value)
        settings = ApiSettings(
            database_url=module_db.dsn,
            pool_max_size=6,
            bot_user_id=BOT_USER_ID,
            run_worker=True,
            ocr_url=ocr.url,
            ocr_timeout_seconds=5,
            outbox_interval_seconds=OUTBOX_INTERVAL_SECONDS,
        )
        with served_api(settings) as url:
            yield url


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_stack(
    module_db: TestDatabase, module_served: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotStack]:
    owner = await asyncpg.connect(module_db.dsn)
    try:
        await owner.execute(
            "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada') "
            "ON CONFLICT (id) DO NOTHING",
            BOT_USER_ID,
        )
        superuser = await issue_token(owner, "superuser", superuser=True, scopes=frozenset())
        bot_key = await issue_bot_key(owner)
        async with httpx.AsyncClient(
            base_url=module_served + "/api/v3", headers={"X-API-KEY": superuser}, timeout=30
        ) as http:
            yield BotStack(
                url=module_served,
                http=http,
                owner=owner,
                recorder=RecorderPort(tmp_path_factory.mktemp("effects")),
                bot_key=bot_key,
                worker_dsn=module_db.worker_dsn,
                settings=BotSettings(
                    api_url=module_served, api_key=bot_key, bot_user_id=BOT_USER_ID
                ),
            )
    finally:
        await owner.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_env(module_stack: BotStack, module_db: TestDatabase) -> AsyncIterator[ProducerEnv]:
    """The producer cases' environment on the shared stack (routes under the API's root)."""
    pool = await create_pool(module_db.dsn, max_size=1)
    key = module_stack.http.headers["X-API-KEY"]
    try:
        async with httpx.AsyncClient(
            base_url=module_stack.url, headers={"X-API-KEY": key}, timeout=30
        ) as api:
            yield ProducerEnv(
                api=api,
                owner=module_stack.owner,
                database=Database(pool),
                settings=ApiSettings(database_url=module_db.dsn, bot_user_id=BOT_USER_ID),
            )
    finally:
        await pool.close()


@pytest_asyncio.fixture(loop_scope="module")
async def flow(module_stack: BotStack, module_env: ProducerEnv, tmp_path: Path) -> Flow:
    stack = dataclasses.replace(module_stack, recorder=RecorderPort(tmp_path / "effects"))
    return await Flow.begin(stack, module_env)
