"""The in-transaction verdict functions: one transition and one job per actual verdict.

Each test drives the functions the routes and the OCR continuations share, inside a
transaction of the served app's own pool, and reads what committed on an independent
connection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest
from genji_api.completions.verification import apply_completion_verdict
from genji_api.database import Database, create_pool
from genji_api.errors import ConflictError
from genji_api.tournaments.verdicts import apply_tournament_verdict
from genji_sdk.jobs import JobStatusResponse

from tests.support import seed, testdb
from tests.support import seed_completions as sc

pytestmark = pytest.mark.queue


@pytest.fixture
async def database(db: testdb.Database) -> AsyncIterator[Database]:
    """A pool of the API's own kind on this test's event loop."""
    pool = await create_pool(db.dsn, max_size=2)
    yield Database(pool)
    await pool.close()


async def _verdict(
    database: Database, completion_id: int, verified: bool, moderator: int
) -> JobStatusResponse:
    return await database.transaction(
        lambda conn: apply_completion_verdict(
            conn,
            completion_id=completion_id,
            verified=verified,
            verified_by=moderator,
            reason=None if verified else "Wrong map",
        )
    )


async def _tournament_verdict(database: Database, tc_id: int, verified: bool) -> JobStatusResponse:
    return await database.transaction(
        lambda conn: apply_tournament_verdict(
            conn, tournament_completion_id=tc_id, verified=verified, verified_by=seed.BASE_USER_ID
        )
    )


async def _jobs(owner: asyncpg.Connection, action: str) -> list[asyncpg.Record]:
    return await owner.fetch(
        "SELECT id, event_key, entity_key FROM jobs WHERE action = $1 ORDER BY event_seq", action
    )


async def test_verify_reject_verify_is_three_jobs_and_a_repeat_is_none_q09(
    database: Database, owner: asyncpg.Connection
) -> None:
    map_id, _ = await seed.game_map(owner)
    player, moderator = await seed.user(owner), await seed.user(owner)
    completion_id = await sc.pending_completion(owner, map_id, player)

    first = await _verdict(database, completion_id, True, moderator)
    second = await _verdict(database, completion_id, False, moderator)
    third = await _verdict(database, completion_id, True, moderator)
    repeat = await _verdict(database, completion_id, True, moderator)

    jobs = await _jobs(owner, "api.completion.verification")
    assert [job["id"] for job in jobs] == [first.id, second.id, third.id]
    assert len({job["event_key"] for job in jobs}) == 3
    assert {job["entity_key"] for job in jobs} == {f"completion:{completion_id}"}
    assert repeat.id == third.id
    transitions = await owner.fetch(
        "SELECT id, verified FROM completions.verification_transitions "
        "WHERE completion_id = $1 ORDER BY id",
        completion_id,
    )
    assert [t["verified"] for t in transitions] == [True, False, True]
    assert [job["event_key"] for job in jobs] == [
        f"completion:verification:{t['id']}" for t in transitions
    ]
    row = await owner.fetchrow(
        "SELECT verified, verified_by, reason FROM core.completions WHERE id = $1", completion_id
    )
    assert tuple(row) == (True, moderator, None)


async def test_tournament_verified_is_terminal(
    database: Database, owner: asyncpg.Connection
) -> None:
    await seed.user(owner, seed.BASE_USER_ID)
    cycle = await sc.active_cycle(owner)
    player = await seed.user(owner)
    tc_id = await sc.tournament_completion(owner, cycle, player)

    rejected = await _tournament_verdict(database, tc_id, False)
    verified = await _tournament_verdict(database, tc_id, True)
    with pytest.raises(ConflictError):
        await _tournament_verdict(database, tc_id, False)
    repeated = await _tournament_verdict(database, tc_id, True)

    assert repeated.id == verified.id != rejected.id
    status = await owner.fetchval("SELECT status FROM tournaments.completions WHERE id = $1", tc_id)
    assert status == "verified"
    verdicts = await owner.fetch(
        "SELECT id FROM tournaments.verdicts WHERE tournament_completion_id = $1 ORDER BY id", tc_id
    )
    jobs = await _jobs(owner, "api.tournament.verification.changed")
    assert [job["event_key"] for job in jobs] == [
        f"tournament:verification:{v['id']}" for v in verdicts
    ]
    assert {job["entity_key"] for job in jobs} == {f"tournament-completion:{tc_id}"}


async def test_participation_xp_once_across_verdicts_and_propagation_q10(
    database: Database, owner: asyncpg.Connection
) -> None:
    await seed.user(owner, seed.BASE_USER_ID)
    cycle = await sc.active_cycle(owner)
    player, moderator = await seed.user(owner), await seed.user(owner)
    # Two runs of the player in the cycle: the second verification grants nothing new.
    tc_first = await sc.tournament_completion(owner, cycle, player, time=95.0)
    tc_linked = await sc.tournament_completion(owner, cycle, player, time=90.0)
    core_id = await sc.pending_completion(
        owner, cycle.map_id, player, time=90.0, tournament_completion_id=tc_linked
    )

    await _tournament_verdict(database, tc_first, True)
    await _tournament_verdict(database, tc_first, True)
    await _verdict(database, core_id, True, moderator)  # propagated to tc_linked

    assert (
        await owner.fetchval("SELECT status FROM tournaments.completions WHERE id = $1", tc_linked)
        == "verified"
    )
    ledger = await owner.fetch(
        "SELECT amount FROM tournaments.xp_grants WHERE cycle_id = $1 AND user_id = $2",
        cycle.cycle_id,
        player,
    )
    assert [row["amount"] for row in ledger] == [sc.PARTICIPATION_XP]
    grants = await owner.fetch(
        "SELECT grant_key, type, base_amount FROM lootbox.xp_grants WHERE user_id = $1", player
    )
    assert [tuple(g) for g in grants] == [
        (f"tournament:{cycle.cycle_id}:{player}:participation", "Tournament", sc.PARTICIPATION_XP)
    ]
    assert await owner.fetchval("SELECT amount FROM lootbox.xp WHERE user_id = $1", player) == (
        sc.PARTICIPATION_XP
    )
    xp_jobs = await _jobs(owner, "api.xp.grant")
    assert [job["entity_key"] for job in xp_jobs] == [f"user:{player}"]


async def test_core_reject_leaves_a_verified_tournament_run_verified(
    database: Database, owner: asyncpg.Connection
) -> None:
    cycle = await sc.active_cycle(owner)
    player, moderator = await seed.user(owner), await seed.user(owner)
    tc_id = await sc.tournament_completion(owner, cycle, player)
    core_id = await sc.pending_completion(
        owner, cycle.map_id, player, time=90.0, tournament_completion_id=tc_id
    )
    await _verdict(database, core_id, True, moderator)
    await _verdict(database, core_id, False, moderator)

    assert (
        await owner.fetchval("SELECT status FROM tournaments.completions WHERE id = $1", tc_id)
        == "verified"
    )
    assert await owner.fetchval(
        "SELECT verified_by IS NOT NULL AND NOT verified FROM core.completions WHERE id = $1",
        core_id,
    )
    assert len(await _jobs(owner, "api.tournament.verification.changed")) == 1
