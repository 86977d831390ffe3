"""The recovery API suite: the API served with one operator, a guild and an alert channel, and
the held-job helpers of tests/recovery."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from genji_api.settings import ApiSettings
from testdb import Database

sys.path.insert(0, str(Path(__file__).parents[2] / "recovery"))

from recovery_api import ALERTS_CHANNEL_ID, GUILD_ID, OPERATOR


@pytest.fixture
def api_settings(db: Database) -> ApiSettings:
    return ApiSettings(
        database_url=db.dsn,
        pool_max_size=6,
        bot_user_id=10**18,
        queue_operator_ids=frozenset({OPERATOR}),
        discord_guild_id=GUILD_ID,
        job_alerts_channel_id=ALERTS_CHANNEL_ID,
    )
