"""The edition boundary and bootstrap: state moves only; the drain announces."""

from __future__ import annotations

from datetime import timedelta

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.tournaments.edition import bootstrap_edition, process_edition_transitions
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_tournaments as st

pytestmark = pytest.mark.queue


async def _due_edition(owner: asyncpg.Connection) -> st.LiveEdition:
    live = await st.live_edition(owner)
    await owner.execute(
        "UPDATE tournaments.editions SET started_at = now() - interval '8 days', "
        "ends_at = now() - interval '1 day' WHERE id = $1",
        live.edition_id,
    )
    return live


async def test_boundary_finalizes_and_starts_the_next_edition(
    owner: asyncpg.Connection, database: Database
) -> None:
    assert await process_edition_transitions(database) is None
    live = await _due_edition(owner)
    transition = await process_edition_transitions(database)
    assert transition is not None and transition.ended_edition_id == live.edition_id
    old = await owner.fetchrow("SELECT * FROM tournaments.editions WHERE id = $1", live.edition_id)
    new = await owner.fetchrow(
        "SELECT * FROM tournaments.editions WHERE id = $1", transition.next_edition_id
    )
    assert old["status"] == "awaiting_results" and new["status"] == "active"
    assert new["started_at"] == old["ends_at"]
    assert new["ends_at"] - new["started_at"] == timedelta(days=7)
    assert (
        await owner.fetchval("SELECT status FROM tournaments.cycles WHERE id = $1", live.cycle_id)
        == "finalizing"
    )
    cycles = await owner.fetch(
        "SELECT category_id, map_id, status FROM tournaments.cycles WHERE edition_id = $1",
        transition.next_edition_id,
    )
    # One active cycle per active category, on a map other than the one it just played.
    assert [(c["category_id"], c["status"]) for c in cycles] == [(live.category_id, "active")]
    assert cycles[0]["map_id"] == live.map_ids[1]
    assert await owner.fetchval("SELECT count(*) FROM tournaments.pending_transitions") == 0
    assert await st.jobs_by_key(owner) == {}
    assert await process_edition_transitions(database) is None


async def test_paused_boundary_ends_without_a_next_edition(
    owner: asyncpg.Connection, database: Database
) -> None:
    await owner.execute("UPDATE tournaments.config SET transitions_paused = true")
    live = await _due_edition(owner)
    transition = await process_edition_transitions(database)
    assert transition is not None and transition.next_edition_id is None
    assert await owner.fetchval("SELECT count(*) FROM tournaments.editions") == 1
    assert live.edition_id == transition.ended_edition_id


async def test_bootstrap_route_writes_one_start_row_and_refuses_a_second(
    owner: asyncpg.Connection,
    api: AsyncTestClient,  # type: ignore[type-arg]
    database: Database,
) -> None:
    await st.category(owner)
    await seed.game_map(owner)
    response = await api.post("/api/v3/tournaments/editions/bootstrap")
    assert response.status_code == 201
    body = response.json()
    rows = await owner.fetch(
        "SELECT edition_id, event_type, published FROM tournaments.pending_transitions"
    )
    assert [(r["edition_id"], r["event_type"], r["published"]) for r in rows] == [
        (body["edition_id"], "edition_rollover", False)
    ]
    again = await api.post("/api/v3/tournaments/editions/bootstrap")
    assert again.status_code == 409
    with pytest.raises(Exception, match="already exists"):
        await bootstrap_edition(database)
