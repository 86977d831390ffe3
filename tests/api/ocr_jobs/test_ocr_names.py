"""The names sent to the OCR service for a user."""

from __future__ import annotations

import asyncpg
import pytest
from genji_api.ocr.names import user_names

from tests.support import seed

pytestmark = pytest.mark.queue


async def test_every_name_upper_cased_primary_first_without_duplicates(
    owner: asyncpg.Connection,
) -> None:
    user_id = await seed.user(owner, name="Shadow")
    await seed.overwatch_name(owner, user_id, "Kiriko")
    await seed.overwatch_name(owner, user_id, "shadow")
    await owner.execute("UPDATE core.users SET global_name = 'Gale' WHERE id = $1", user_id)

    assert await user_names(owner, user_id) == ["KIRIKO", "SHADOW", "GALE"]


async def test_a_user_without_overwatch_names_has_nickname_only(
    owner: asyncpg.Connection,
) -> None:
    user_id = await seed.user(owner, name="Solo")
    await owner.execute("UPDATE core.users SET global_name = NULL WHERE id = $1", user_id)

    assert await user_names(owner, user_id) == ["SOLO"]
