"""Each branch of the tournament outbox drain, and what a rerun, a failure or a race leave."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.tournaments.edition import bootstrap_edition
from genji_api.tournaments.outbox_service import drain_tournament_outbox
from genji_api.tournaments.reroll import publish_results

from tests.api.db_state import inject_failure, remove_failure
from tests.support import seed
from tests.support import seed_tournaments as st
from tests.support.harness import eventually

pytestmark = pytest.mark.queue


async def _grants(owner: asyncpg.Connection) -> list[tuple[int, int, str, int]]:
    rows = await owner.fetch(
        "SELECT cycle_id, user_id, reason, amount FROM tournaments.xp_grants "
        "WHERE reason <> 'participation' ORDER BY cycle_id, user_id, reason"
    )
    return [(r["cycle_id"], r["user_id"], r["reason"], r["amount"]) for r in rows]


async def _xp_jobs(owner: asyncpg.Connection) -> int:
    count: int = await owner.fetchval("SELECT count(*) FROM jobs WHERE action = 'api.xp.grant'")
    return count


async def _edition(owner: asyncpg.Connection, edition_id: int) -> asyncpg.Record:
    row: asyncpg.Record = await owner.fetchrow(
        "SELECT status, start_announced FROM tournaments.editions WHERE id = $1", edition_id
    )
    return row


async def test_start_only_while_results_pending(
    owner: asyncpg.Connection, database: Database
) -> None:
    ended = await st.ended_edition(owner, pending=True)
    report = await drain_tournament_outbox(database)
    key = f"tournament:rollover:{ended.edition_id}"
    assert report.start_announced == [ended.edition_id] and report.completed == []
    assert await st.jobs_by_key(owner, "tournament:") == {key: "api.tournament.rollover"}
    payload = await st.job_payload(owner, key)
    assert payload["results"] == [] and payload["results_pending"] is True
    assert [c["cycle_id"] for c in payload["started"]] == [ended.next_cycle_id]  # type: ignore[union-attr,index]
    assert await _grants(owner) == [] and await _xp_jobs(owner) == 0
    edition = await _edition(owner, ended.edition_id)
    assert edition["status"] == "awaiting_results" and edition["start_announced"]


async def test_combined_rollover_grants_and_completes(
    owner: asyncpg.Connection, database: Database
) -> None:
    ended = await st.ended_edition(owner)
    report = await drain_tournament_outbox(database)
    key = f"tournament:rollover:{ended.edition_id}"
    assert report.completed == [ended.edition_id]
    assert await st.jobs_by_key(owner, "tournament:") == {key: "api.tournament.rollover"}
    payload = await st.job_payload(owner, key)
    assert payload["results_pending"] is False
    [result] = payload["results"]  # type: ignore[misc]
    assert result["winner_user_id"] == ended.winner
    # The rejected 70.0 run of the winner is not a standing; best row per user.
    assert [(e["rank"], e["user_id"], e["time"]) for e in result["standings"]] == [
        (1, ended.winner, 50.0),
        (2, ended.runner_up, 60.0),
    ]
    assert [c["cycle_id"] for c in payload["started"]] == [ended.next_cycle_id]  # type: ignore[union-attr,index]
    assert await _grants(owner) == [
        (ended.cycle_id, ended.winner, "placement", 100),
        (ended.cycle_id, ended.winner, "streak", 7),
        (ended.cycle_id, ended.runner_up, "placement", 50),
        (ended.cycle_id, ended.runner_up, "streak", 7),
    ]
    keys = await st.jobs_by_key(owner, "xp:grant:")
    assert len(keys) == 4 and report.xp_grants == 4
    grant_keys = await owner.fetch("SELECT grant_key FROM lootbox.xp_grants ORDER BY grant_key")
    assert f"tournament:{ended.cycle_id}:{ended.winner}:placement" in [
        r["grant_key"] for r in grant_keys
    ]
    assert (await _edition(owner, ended.edition_id))["status"] == "completed"
    assert (
        await owner.fetchval("SELECT status FROM tournaments.cycles WHERE id = $1", ended.cycle_id)
        == "completed"
    )
    streak = await owner.fetchval(
        "SELECT current_streak FROM tournaments.streaks WHERE user_id = $1", ended.winner
    )
    assert streak == 1


async def test_deferred_results_row_written_and_published(
    owner: asyncpg.Connection, database: Database
) -> None:
    ended = await st.ended_edition(owner, start_announced=True)
    report = await drain_tournament_outbox(database)
    key = f"tournament:results:{ended.edition_id}"
    assert report.results_deferred == [ended.edition_id]
    row = await owner.fetchrow(
        "SELECT id, published FROM tournaments.pending_transitions "
        "WHERE edition_id = $1 AND event_type = 'edition_results'",
        ended.edition_id,
    )
    assert row["published"] and report.published == [row["id"]]
    assert await st.jobs_by_key(owner, "tournament:") == {key: "api.tournament.results"}
    payload = await st.job_payload(owner, key)
    assert payload["results"][0]["winner_user_id"] == ended.winner  # type: ignore[index]
    assert len(await _grants(owner)) == 4 and await _xp_jobs(owner) == 4
    assert (await _edition(owner, ended.edition_id))["status"] == "completed"


async def test_announced_with_pending_does_nothing(
    owner: asyncpg.Connection, database: Database
) -> None:
    ended = await st.ended_edition(owner, pending=True, start_announced=True)
    report = await drain_tournament_outbox(database)
    assert report.event_keys == [] and report.xp_grants == 0
    assert await st.jobs_by_key(owner) == {}
    assert (await _edition(owner, ended.edition_id))["status"] == "awaiting_results"


async def test_bootstrap_row_published_with_start_key(
    owner: asyncpg.Connection, database: Database
) -> None:
    await st.category(owner)
    await seed.game_map(owner)
    edition = await bootstrap_edition(database)
    report = await drain_tournament_outbox(database)
    key = f"tournament:rollover:{edition.edition_id}:start"
    assert report.published == [edition.transition_id] and report.event_keys == [key]
    assert await st.jobs_by_key(owner, "tournament:") == {key: "api.tournament.rollover"}
    payload = await st.job_payload(owner, key)
    assert [c["cycle_id"] for c in payload["started"]] == edition.cycle_ids  # type: ignore[union-attr,index]
    assert await owner.fetchval(
        "SELECT published FROM tournaments.pending_transitions WHERE id = $1",
        edition.transition_id,
    )


async def _snapshot(owner: asyncpg.Connection) -> tuple[object, ...]:
    return (
        await owner.fetchval("SELECT count(*) FROM jobs"),
        await owner.fetchval("SELECT count(*) FROM pgqueuer"),
        await _grants(owner),
        await owner.fetchval("SELECT count(*) FROM lootbox.xp_grants"),
        await owner.fetch("SELECT user_id, amount FROM lootbox.xp ORDER BY user_id"),
        await owner.fetch(
            "SELECT user_id, current_streak, max_streak FROM tournaments.streaks ORDER BY 1"
        ),
        await owner.fetch("SELECT id, published FROM tournaments.pending_transitions ORDER BY 1"),
    )


@pytest.mark.parametrize("announced", [False, True], ids=["combined", "deferred"])
async def test_q10_rerun_after_commit_changes_nothing(
    owner: asyncpg.Connection, database: Database, announced: bool
) -> None:
    await st.ended_edition(owner, start_announced=announced)
    first = await drain_tournament_outbox(database)
    assert first.xp_grants == 4
    after_first = await _snapshot(owner)
    again = await drain_tournament_outbox(database)
    assert again.event_keys == [] and again.xp_grants == 0 and again.published == []
    assert await _snapshot(owner) == after_first


async def test_q10_replayed_results_grant_nothing_twice(
    owner: asyncpg.Connection, database: Database
) -> None:
    """Results announced again (force-publish after a combined rollover) reuse the ledger."""
    ended = await st.ended_edition(owner)
    await drain_tournament_outbox(database)
    granted = await _grants(owner)
    xp = await owner.fetch("SELECT user_id, amount FROM lootbox.xp ORDER BY user_id")
    await publish_results(database, ended.edition_id)
    replay = await drain_tournament_outbox(database)
    assert replay.event_keys == [f"tournament:results:{ended.edition_id}"]
    assert replay.xp_grants == 0
    assert await _grants(owner) == granted and await _xp_jobs(owner) == 4
    assert await owner.fetch("SELECT user_id, amount FROM lootbox.xp ORDER BY user_id") == xp
    streaks = await owner.fetch("SELECT current_streak FROM tournaments.streaks")
    assert [r["current_streak"] for r in streaks] == [1, 1]


async def test_q01_failure_at_commit_leaves_row_unpublished_and_no_grants(
    owner: asyncpg.Connection, database: Database
) -> None:
    ended = await st.ended_edition(owner, start_announced=True)
    await inject_failure(owner, "commit")
    try:
        with pytest.raises(asyncpg.RaiseError, match="injected failure"):
            await drain_tournament_outbox(database)
    finally:
        await remove_failure(owner)
    assert await owner.fetchval("SELECT count(*) FROM tournaments.pending_transitions") == 0
    assert (await _edition(owner, ended.edition_id))["status"] == "awaiting_results"
    assert await _grants(owner) == [] and await st.jobs_by_key(owner) == {}
    # The same drain then succeeds and publishes what the failed one did not.
    report = await drain_tournament_outbox(database)
    assert len(report.published) == 1 and report.xp_grants == 4


async def test_q01_failure_at_commit_keeps_bootstrap_row_unpublished(
    owner: asyncpg.Connection, database: Database
) -> None:
    await st.category(owner)
    await seed.game_map(owner)
    edition = await bootstrap_edition(database)
    await inject_failure(owner, "commit")
    try:
        with pytest.raises(asyncpg.RaiseError, match="injected failure"):
            await drain_tournament_outbox(database)
    finally:
        await remove_failure(owner)
    assert not await owner.fetchval(
        "SELECT published FROM tournaments.pending_transitions WHERE id = $1",
        edition.transition_id,
    )
    assert await st.jobs_by_key(owner) == {}


async def test_concurrent_drains_grant_once(owner: asyncpg.Connection, database: Database) -> None:
    """Two drains on separate connections released together by a table lock (the barrier)."""
    ended = await st.ended_edition(owner)
    await st.category(owner)
    await seed.game_map(owner)
    await owner.execute(
        "UPDATE tournaments.editions SET status = 'completed' WHERE id = $1", ended.next_edition_id
    )
    bootstrapped = await bootstrap_edition(database)
    await owner.execute("BEGIN")
    await owner.execute("LOCK TABLE tournaments.editions IN EXCLUSIVE MODE")
    drains = [asyncio.create_task(drain_tournament_outbox(database)) for _ in range(2)]

    async def both_waiting() -> bool:
        waiting: int = await owner.fetchval(
            "SELECT count(*) FROM pg_locks WHERE NOT granted "
            "AND relation = 'tournaments.editions'::regclass"
        )
        return waiting == 2

    await eventually(both_waiting, deadline=10, what="both drains blocked on the barrier")
    await owner.execute("COMMIT")
    reports = await asyncio.gather(*drains)
    assert sorted(len(r.completed) for r in reports) == [0, 1]
    assert sorted(len(r.published) for r in reports) == [0, 1]
    assert sum(r.xp_grants for r in reports) == 4
    assert len(await _grants(owner)) == 4 and await _xp_jobs(owner) == 4
    assert set(await st.jobs_by_key(owner, "tournament:")) == {
        f"tournament:rollover:{ended.edition_id}",
        f"tournament:rollover:{bootstrapped.edition_id}:start",
    }
    payload = json.dumps(await st.job_payload(owner, f"tournament:rollover:{ended.edition_id}"))
    assert str(ended.winner) in payload
