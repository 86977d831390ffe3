"""Start, end, results and reroll announcements keep distinct identities (Q09)."""

from __future__ import annotations

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.tournaments.edition import bootstrap_edition, process_edition_transitions
from genji_api.tournaments.outbox_service import drain_tournament_outbox
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_tournaments as st

pytestmark = pytest.mark.queue


async def test_q09_start_end_results_and_reroll_keys_are_distinct(
    owner: asyncpg.Connection,
    database: Database,
    api: AsyncTestClient,  # type: ignore[type-arg]
) -> None:
    category_id = await st.category(owner)
    for _ in range(4):
        await seed.game_map(owner)
    first = await bootstrap_edition(database)
    await drain_tournament_outbox(database)
    [cycle_id] = first.cycle_ids
    player = await seed.user(owner)
    map_id = await owner.fetchval("SELECT map_id FROM tournaments.cycles WHERE id = $1", cycle_id)
    run = await st.submission(owner, cycle_id, player, map_id, 42.0, status="pending")
    await owner.execute(
        "UPDATE tournaments.editions SET started_at = now() - interval '8 days', "
        "ends_at = now() - interval '1 day' WHERE id = $1",
        first.edition_id,
    )
    ended = await process_edition_transitions(database)
    assert ended is not None and ended.next_edition_id is not None
    await drain_tournament_outbox(database)  # start-only: a verdict is pending
    await owner.execute("UPDATE tournaments.completions SET status = 'verified' WHERE id = $1", run)
    await drain_tournament_outbox(database)  # deferred results
    rerolls = [
        await api.post(f"/api/v3/tournaments/categories/{category_id}/reroll-active")
        for _ in range(2)
    ]
    assert [r.status_code for r in rerolls] == [201, 201]
    new_cycles = [r.json()["cycle_id"] for r in rerolls]
    assert new_cycles[0] != new_cycles[1]
    assert await st.jobs_by_key(owner, "tournament:") == {
        f"tournament:rollover:{first.edition_id}:start": "api.tournament.rollover",
        f"tournament:rollover:{first.edition_id}": "api.tournament.rollover",
        f"tournament:results:{first.edition_id}": "api.tournament.results",
        f"tournament:active-reroll:{new_cycles[0]}": "api.tournament.rollover",
        f"tournament:active-reroll:{new_cycles[1]}": "api.tournament.rollover",
    }
    replaced = await owner.fetch(
        "SELECT id, status, replaced_by FROM tournaments.cycles WHERE edition_id = $1 ORDER BY id",
        ended.next_edition_id,
    )
    assert [(r["status"], r["replaced_by"]) for r in replaced] == [
        ("replaced", new_cycles[0]),
        ("replaced", new_cycles[1]),
        ("active", None),
    ]
    payload = await st.job_payload(owner, f"tournament:active-reroll:{new_cycles[1]}")
    assert payload["results"] == []
    assert [c["cycle_id"] for c in payload["started"]] == [new_cycles[1]]  # type: ignore[union-attr,index]


async def test_reroll_unknown_category_or_no_live_cycle_is_404(
    owner: asyncpg.Connection,
    api: AsyncTestClient,  # type: ignore[type-arg]
) -> None:
    unknown = await api.post("/api/v3/tournaments/categories/999999/reroll-active")
    assert unknown.status_code == 404 and unknown.json()["error"] == "Category not found."
    idle = await st.category(owner)
    response = await api.post(f"/api/v3/tournaments/categories/{idle}/reroll-active")
    assert response.status_code == 404
    assert response.json()["error"] == "No active cycle for this category."
    assert await st.jobs_by_key(owner) == {}
