"""The domain rules the queue's handlers and their idempotency rely on hold in the database
itself, whichever code writes the rows."""

import asyncpg
import pytest
from genji_api.migrations.location import db_dir

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

PLAYER, MOD = 1_100_000_000_000_000_001, 1_100_000_000_000_000_002


async def _users(conn: asyncpg.Connection) -> None:
    await conn.execute(
        "INSERT INTO core.users (id, nickname, is_mod) VALUES ($1, 'player', false), ($2, 'mod', true)",
        PLAYER,
        MOD,
    )


async def _map(conn: asyncpg.Connection, code: str, official: bool = True) -> int:
    map_id: int = await conn.fetchval(
        "INSERT INTO core.maps (code, map_name, official) VALUES ($1, 'Hanamura', $2) RETURNING id",
        code,
        official,
    )
    return map_id


async def _links(conn: asyncpg.Connection) -> dict[str, str | None]:
    rows = await conn.fetch("SELECT code, linked_code FROM core.maps ORDER BY code")
    return {r["code"]: r["linked_code"] for r in rows}


async def _complete(
    conn: asyncpg.Connection,
    map_id: int,
    time: float,
    verified: bool = False,
    legacy: bool = False,
) -> int:
    completion_id: int = await conn.fetchval(
        """INSERT INTO core.completions (map_id, user_id, time, screenshot, verified, verified_by, legacy)
           VALUES ($1, $2, $3, 'https://example.invalid/s.png', $4, $5, $6) RETURNING id""",
        map_id,
        PLAYER,
        time,
        verified,
        MOD if verified else None,
        legacy,
    )
    return completion_id


async def test_at_most_one_pending_edit_request_per_map(connect: Connect) -> None:
    conn = await connect()
    await _users(conn)
    map_id = await _map(conn, "EDIT1")
    insert = """INSERT INTO maps.edit_requests (map_id, code, proposed_changes, reason, created_by)
                VALUES ($1, 'EDIT1', '{"checkpoints": 3}', 'more checkpoints', $2) RETURNING id"""
    first = await conn.fetchval(insert, map_id, PLAYER)
    with pytest.raises(asyncpg.UniqueViolationError, match="edit_requests_one_pending_per_map"):
        await conn.fetchval(insert, map_id, PLAYER)
    await conn.execute(
        "UPDATE maps.edit_requests SET accepted = false, resolved_by = $2, resolved_at = now() WHERE id = $1",
        first,
        MOD,
    )
    assert await conn.fetchval(insert, map_id, PLAYER) != first


async def test_links_are_symmetric_exclusive_and_cleared_on_both_sides(connect: Connect) -> None:
    conn = await connect()
    await _map(conn, "AAAA")
    await _map(conn, "BBBB", official=False)
    await _map(conn, "CCCC", official=False)

    await conn.execute("UPDATE core.maps SET linked_code = 'BBBB' WHERE code = 'AAAA'")
    assert await _links(conn) == {"AAAA": "BBBB", "BBBB": "AAAA", "CCCC": None}

    with pytest.raises(asyncpg.CheckViolationError, match="BBBB is already linked to AAAA"):
        await conn.execute("UPDATE core.maps SET linked_code = 'BBBB' WHERE code = 'CCCC'")
    with pytest.raises(asyncpg.CheckViolationError, match="cannot be linked to itself"):
        await conn.execute("UPDATE core.maps SET linked_code = 'CCCC' WHERE code = 'CCCC'")
    assert await _links(conn) == {"AAAA": "BBBB", "BBBB": "AAAA", "CCCC": None}

    await conn.execute("UPDATE core.maps SET linked_code = NULL WHERE code = 'BBBB'")
    assert await _links(conn) == {"AAAA": None, "BBBB": None, "CCCC": None}


async def test_one_guide_per_user_and_map(connect: Connect) -> None:
    conn = await connect()
    await _users(conn)
    map_id = await _map(conn, "GUID1")
    insert = "INSERT INTO maps.guides (map_id, user_id, url) VALUES ($1, $2, $3)"
    await conn.execute(insert, map_id, PLAYER, "https://youtu.be/one")
    with pytest.raises(asyncpg.UniqueViolationError, match="guides_user_id_map_id_unique"):
        await conn.execute(insert, map_id, PLAYER, "https://youtu.be/two")
    await conn.execute(insert, map_id, MOD, "https://youtu.be/two")


async def test_a_key_of_a_grant_is_granted_once(connect: Connect) -> None:
    conn = await connect()
    await _users(conn)
    insert = """INSERT INTO lootbox.user_keys (user_id, key_type, grant_key, item)
                VALUES ($1, 'Classic', 'xp:rank:7', $2)"""
    await conn.execute(insert, PLAYER, 1)
    await conn.execute(insert, PLAYER, 2)
    with pytest.raises(asyncpg.UniqueViolationError, match="user_keys_grant_key_item_unique"):
        await conn.execute(insert, PLAYER, 1)


async def test_an_xp_grant_is_recorded_once(connect: Connect) -> None:
    conn = await connect()
    await _users(conn)
    insert = """INSERT INTO lootbox.xp_grants
                    (grant_key, user_id, type, base_amount, amount, previous_total, new_total)
                VALUES ('guide:12', $1, 'Guide', 50, $2, 0, $2)"""
    await conn.execute(insert, PLAYER, 50)
    with pytest.raises(asyncpg.UniqueViolationError, match="xp_grants_grant_key_key"):
        await conn.execute(insert, PLAYER, 100)


async def test_only_a_verified_non_legacy_finisher_may_vote(connect: Connect) -> None:
    conn = await connect()
    await _users(conn)
    map_id = await _map(conn, "VOTE1")
    await conn.execute(
        "INSERT INTO playtests.meta (map_id, thread_id) VALUES ($1, 4242)",
        map_id,
    )
    vote = """INSERT INTO playtests.votes (user_id, map_id, playtest_thread_id, difficulty)
              VALUES ($1, $2, 4242, 5.5)"""
    refused = "needs a verified completion of map"
    with pytest.raises(asyncpg.CheckViolationError, match=refused):
        await conn.execute(vote, PLAYER, map_id)
    await _complete(conn, map_id, 30.0, verified=True, legacy=True)
    await _complete(conn, map_id, 20.0)  # pending
    with pytest.raises(asyncpg.CheckViolationError, match=refused):
        await conn.execute(vote, PLAYER, map_id)
    await _complete(conn, map_id, 10.0, verified=True)
    await conn.execute(vote, PLAYER, map_id)


async def test_a_new_run_must_beat_the_personal_best(connect: Connect) -> None:
    conn = await connect()
    await _users(conn)
    map_id = await _map(conn, "FAST1")
    await _complete(conn, map_id, 10.0)
    with pytest.raises(asyncpg.CheckViolationError, match="not faster than the personal best"):
        await _complete(conn, map_id, 10.0)
    rejected = await _complete(conn, map_id, 9.5)
    await conn.execute(
        "UPDATE core.completions SET verified_by = $2, reason = 'fake' WHERE id = $1",
        rejected,
        MOD,
    )
    # Rejected and legacy runs do not count, and legacy runs are not checked.
    await _complete(conn, map_id, 1.0, verified=True, legacy=True)
    await _complete(conn, map_id, 9.7)
    with pytest.raises(asyncpg.CheckViolationError, match="not faster than the personal best"):
        await _complete(conn, map_id, 9.8)


async def test_a_verified_tournament_completion_stays_verified(connect: Connect) -> None:
    conn = await connect()
    await _users(conn)
    map_id = await _map(conn, "TOUR1")
    cycle = await conn.fetchval(
        """WITH e AS (INSERT INTO tournaments.editions (started_at, ends_at)
                      VALUES (now(), now() + interval '7 days') RETURNING id),
                c AS (INSERT INTO tournaments.categories (name) VALUES ('Easy') RETURNING id)
           INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status)
           SELECT e.id, c.id, $1, 'active' FROM e, c RETURNING id""",
        map_id,
    )
    completion = await conn.fetchval(
        """INSERT INTO tournaments.completions (cycle_id, user_id, map_id, time, screenshot)
           VALUES ($1, $2, $3, 12.5, 'https://example.invalid/s.png') RETURNING id""",
        cycle,
        PLAYER,
        map_id,
    )
    status = "UPDATE tournaments.completions SET status = $2 WHERE id = $1"
    await conn.execute(status, completion, "rejected")
    await conn.execute(status, completion, "verified")
    for later in ("rejected", "pending"):
        with pytest.raises(asyncpg.CheckViolationError, match="is verified"):
            await conn.execute(status, completion, later)
    assert await conn.fetchval(
        "SELECT verified FROM tournaments.completions WHERE id = $1", completion
    )


async def test_one_open_playtest_per_map(connect: Connect) -> None:
    conn = await connect()
    map_id = await _map(conn, "PLAY1")
    insert = "INSERT INTO playtests.meta (map_id) VALUES ($1) RETURNING id"
    first = await conn.fetchval(insert, map_id)
    with pytest.raises(asyncpg.UniqueViolationError, match="meta_one_open_playtest_per_map"):
        await conn.fetchval(insert, map_id)
    await conn.execute("UPDATE playtests.meta SET completed = true WHERE id = $1", first)
    assert await conn.fetchval(insert, map_id) != first


SEEDS = db_dir() / "seeds" / "local.sql"
SEEDED = [
    "core.users",
    "users.overwatch_usernames",
    "core.maps",
    "maps.creators",
    "maps.link_operations",
    "playtests.meta",
    "tournaments.categories",
    "tournaments.editions",
    "tournaments.cycles",
    "auth.users",
]


async def _counts(conn: asyncpg.Connection) -> dict[str, int]:
    return {t: await conn.fetchval(f"SELECT count(*) FROM {t}") for t in SEEDED}


async def test_local_seeds_apply_as_the_owner_and_again_without_change(connect: Connect) -> None:
    conn = await connect()
    await conn.execute(SEEDS.read_text())
    first = await _counts(conn)
    assert all(first.values()), first
    links = await _links(conn)
    assert (links["HANA1"], links["UNOF1"]) == ("UNOF1", "HANA1")
    await conn.execute(SEEDS.read_text())
    assert await _counts(conn) == first
    assert await conn.fetchval("SELECT count(*) FROM auth.api_tokens") == 0
