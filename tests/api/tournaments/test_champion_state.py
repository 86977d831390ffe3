"""GET /tournaments/categories/{id}: the champion is the winner of the latest completed cycle."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.tournaments.edition import process_edition_transitions
from genji_api.tournaments.outbox_service import drain_tournament_outbox
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_tournaments as st

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]
ROLE = 10**18 + 9


async def _category(api: Client, category_id: int) -> dict[str, object]:
    response = await api.get(f"/api/v3/tournaments/categories/{category_id}")
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


async def test_champion_follows_the_latest_completed_cycle(
    api: Client, owner: asyncpg.Connection, database: Database
) -> None:
    ended = await st.ended_edition(owner, pending=True)
    await owner.execute(
        "UPDATE tournaments.categories SET champion_role_id = $2 WHERE id = $1",
        ended.category_id,
        ROLE,
    )
    before = await _category(api, ended.category_id)
    assert before["champion_role_id"] == ROLE
    assert (before["champion_user_id"], before["champion_cycle_id"]) == (None, None)

    await drain_tournament_outbox(database)  # start-only: results still pending
    assert (await _category(api, ended.category_id))["champion_user_id"] is None
    await owner.execute(
        "UPDATE tournaments.completions SET status = 'rejected' WHERE id = $1",
        ended.pending_completion_id,
    )
    await drain_tournament_outbox(database)  # the deferred results complete the edition
    first = await _category(api, ended.category_id)
    assert (first["champion_user_id"], first["champion_cycle_id"]) == (
        ended.winner,
        ended.cycle_id,
    )
    assert first["former_champion_user_ids"] == []

    newer = await seed.user(owner)
    await st.submission(
        owner, ended.next_cycle_id, newer, ended.map_ids[1], 20.0, video="https://v.example/n"
    )
    await owner.execute(
        "UPDATE tournaments.editions SET ends_at = now() - interval '1 second' WHERE id = $1",
        ended.next_edition_id,
    )
    await process_edition_transitions(database)
    await drain_tournament_outbox(database)
    second = await _category(api, ended.category_id)
    assert (second["champion_user_id"], second["champion_cycle_id"]) == (
        newer,
        ended.next_cycle_id,
    )
    assert second["former_champion_user_ids"] == [ended.winner]


async def test_unknown_category_is_404(api: Client) -> None:
    response = await api.get("/api/v3/tournaments/categories/999999")
    assert response.status_code == 404
    assert response.json() == {"error": "Category not found.", "extra": None, "code": "not_found"}


async def test_needs_the_tournaments_read_scope(api: Client, make_key: Any) -> None:
    key = await make_key("tournaments:write")
    response = await api.get("/api/v3/tournaments/categories/1", headers={"X-API-KEY": key})
    assert response.status_code in (401, 403)
