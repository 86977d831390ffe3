"""The OCR jobs run in process: a real pool on the test database and a real fake OCR server."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings
from genji_devstack.fake_ocr import FakeOcr

from tests.support import seed_ocr_jobs


@pytest.fixture
def fake_ocr() -> Iterator[FakeOcr]:
    with FakeOcr() as fake:
        yield fake


@pytest.fixture
async def ocr_settings(
    api_settings: ApiSettings, fake_ocr: FakeOcr, owner: asyncpg.Connection
) -> ApiSettings:
    await seed_ocr_jobs.bot(owner, api_settings.bot_user_id)
    return dataclasses.replace(
        api_settings, ocr_url=fake_ocr.url, ocr_timeout_seconds=seed_ocr_jobs.OCR_TIMEOUT_SECONDS
    )


@pytest.fixture
async def database(ocr_settings: ApiSettings) -> AsyncIterator[Database]:
    pool = await create_pool(ocr_settings.database_url, max_size=4)
    try:
        yield Database(pool)
    finally:
        await pool.close()
