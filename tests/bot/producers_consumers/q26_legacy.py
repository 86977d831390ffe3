"""Payloads of the 21 bot events as the legacy producers shaped them.

Each fixture inserts the domain rows its payload refers to (on the connection it is given,
inside the caller's transaction) and returns the message body with the key the legacy
producer published it under (its idempotency key, or the current key format where the legacy
producer sent none). Field lists follow the legacy SDK structs.

Fifteen legacy shapes are the current version-1 payloads. Six lack a field the current
contract requires because replay safety is keyed on it, and no legacy message carries it:
- `api.completion.autoverification.failed`: `completion_id` (one notice per OCR decision);
- `api.completion.upvote`: `milestone` (the milestone forward is deduplicated by it);
- `api.completion.verification`: `transition_id` (one job per actual verdict);
- `api.playtest.reset`: `transition_id` (one job per reset, old resets detectably stale);
- `api.tournament.verification.changed`: `transition_id` (one job per actual verdict);
- `api.xp.grant`: `grant_id` (rank/prestige keys and notices deduplicated per grant).
Inventing these ids would break the deduplication they exist for, so the enqueue path refuses
those messages, naming the field, and nothing of their transaction commits.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
from genji_api.playtests import repository as playtests

from tests.bot.q26_flow import Flow
from tests.support import seed, seed_map_edits
from tests.support import seed_completions as sc
from tests.support import seed_tournaments as st
from tests.support.seed_maps import playtest, vote

from . import q26_completions as qc
from . import q26_feeds as qf
from . import q26_playtests as qp
from . import q26_tournaments as qt

MODERATOR = 10**18 - 1


@dataclass(frozen=True)
class Legacy:
    payload: dict[str, Any]
    """The message body as the legacy producer published it."""
    event_key: str
    entity_key: str | None
    state: Any = None
    """What the consumer check needs."""
    row: tuple[str, int] | None = None
    """(table, id) of the main domain row inserted with it."""


Build = Callable[[Flow, asyncpg.Connection], Awaitable[Legacy]]
Check = Callable[[Flow, Any], Awaitable[None]]


@dataclass(frozen=True)
class LegacyFixture:
    event: str
    build: Build
    check: Check | None = None
    """The consumer's effect, for a shape the current contract accepts."""
    refused_for: str | None = None
    """The required field the legacy shape lacks, for one it no longer accepts."""


async def _pending_run(conn: asyncpg.Connection, **fields: Any) -> tuple[int, int]:
    map_id, _ = await seed.game_map(conn)
    player = await seed.user(conn)
    return player, await sc.pending_completion(conn, map_id, player, **fields)


async def _autoverification_failed(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    player, completion_id = await _pending_run(conn)
    code = await conn.fetchval(
        "SELECT m.code FROM core.completions c JOIN core.maps m ON m.id = c.map_id WHERE c.id = $1",
        completion_id,
    )
    payload = {
        "submitted_code": code,
        "submitted_time": 100.0,
        "submitted_user_names": ["RUNNER"],
        "user_id": player,
        "extracted": {"name": "RUNNER", "time": 101.0, "code": code, "sources": {}, "texts": {}},
        "code_match": True,
        "time_match": False,
        "user_match": True,
        "screenshot": sc.SCREENSHOT,
    }
    key = f"completion:autoverification-failed:{completion_id}"
    return Legacy(payload, key, None, row=("core.completions", completion_id))


async def _submission(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    player, completion_id = await _pending_run(conn, video=sc.VIDEO)
    return Legacy(
        {"completion_id": completion_id},
        f"completion:submission:{player}:{completion_id}",
        f"completion:{completion_id}",
        state={"user_id": player},
    )


async def _upvote(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    map_id, _ = await seed.game_map(conn)
    completion_id = await seed.verified_completion(conn, map_id, await seed.user(conn))
    post = await flow.existing_message(flow.channels.completions)
    await conn.execute(
        "UPDATE core.completions SET message_id = $2 WHERE id = $1", completion_id, post.message_id
    )
    await sc.upvotes(conn, post.message_id, 10)
    payload = {"user_id": await seed.user(conn), "message_id": post.message_id}
    key = f"completion:upvote:{post.message_id}:10"
    return Legacy(payload, key, None, row=("core.completions", completion_id))


async def _verification(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    _, completion_id = await _pending_run(conn)
    await conn.execute(
        "UPDATE core.completions SET verified = true, verified_by = $2 WHERE id = $1",
        completion_id,
        await seed.user(conn, MODERATOR),
    )
    payload = {
        "completion_id": completion_id,
        "verified": True,
        "verified_by": MODERATOR,
        "reason": None,
    }
    key = f"completion:verify:{completion_id}"
    return Legacy(
        payload, key, f"completion:{completion_id}", row=("core.completions", completion_id)
    )


async def _verification_delete(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    card = await flow.existing_message(flow.channels.verification_queue)
    _, completion_id = await _pending_run(conn, verification_id=card.message_id)
    await conn.execute(
        "UPDATE core.completions SET verified_by = $2, reason = 'superseded' WHERE id = $1",
        completion_id,
        await seed.user(conn, flow.env.settings.bot_user_id),
    )
    return Legacy(
        {"verification_id": card.message_id},
        f"completion:verification-delete:{completion_id}",
        f"completion:{completion_id}",
        state=card.message_id,
    )


async def _edit(conn: asyncpg.Connection) -> tuple[int, str]:
    map_id, code = await seed.game_map(conn)
    requester = await seed.user(conn)
    return await seed_map_edits.edit_request(
        conn, map_id, code, requester, {"checkpoints": 7}
    ), code


async def _map_edit_created(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    edit_id, code = await _edit(conn)
    return Legacy(
        {"edit_request_id": edit_id},
        f"map_edit:created:{edit_id}",
        f"map-edit:{edit_id}",
        state={"code": code},
    )


async def _map_edit_resolved(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    card = await flow.existing_message(flow.channels.verification_queue)
    edit_id, _ = await _edit(conn)
    moderator = await seed.user(conn, MODERATOR)
    await conn.execute(
        "UPDATE maps.edit_requests SET message_id = $2, accepted = false, resolved_by = $3, "
        "resolved_at = now(), rejection_reason = 'Duplicate.' WHERE id = $1",
        edit_id,
        card.message_id,
        moderator,
    )
    payload = {
        "edit_request_id": edit_id,
        "accepted": False,
        "resolved_by": moderator,
        "rejection_reason": "Duplicate.",
    }
    return Legacy(payload, f"map_edit:resolved:{edit_id}", f"map-edit:{edit_id}", card.message_id)


async def _newsfeed(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    newsfeed_id: int = await conn.fetchval(
        "INSERT INTO public.newsfeed (payload) VALUES "
        """('{"type": "announcement", "title": "Patch", "content": "Maps updated"}') """
        "RETURNING id"
    )
    return Legacy({"newsfeed_id": newsfeed_id}, f"newsfeed:create:{newsfeed_id}", None)


async def _notification(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    player = await seed.user(conn)
    event_id: int = await conn.fetchval(
        "INSERT INTO notifications.events (user_id, event_type, title, body) "
        "VALUES ($1, 'verification_approved', 'Verified', 'Your run was verified.') RETURNING id",
        player,
    )
    payload = {
        "event_id": event_id,
        "user_id": player,
        "event_type": "verification_approved",
        "title": "Verified",
        "body": "Your run was verified.",
        "discord_message": None,
        "metadata": None,
        "channels_to_deliver": ["discord_dm"],
    }
    return Legacy(payload, f"notification:delivery:{event_id}", None, state=player)


async def _playtest_create(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    seeded = await playtest(conn, bound=False)
    await conn.execute("UPDATE core.maps SET hidden = true WHERE id = $1", seeded.map_id)
    return Legacy(
        {"code": seeded.code, "playtest_id": seeded.playtest_id},
        f"map:submit:{seeded.map_id}",
        f"playtest:{seeded.playtest_id}",
        state={"code": seeded.code},
    )


async def _in_thread(flow: Flow, conn: asyncpg.Connection, *, voted: bool) -> qp.Voted:
    seeded = await playtest(conn, thread_id=await flow.existing_thread())
    return qp.Voted(seeded, await vote(conn, seeded, 3.0) if voted else None)


async def _vote_cast(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    state = await _in_thread(flow, conn, voted=True)
    payload = {
        "voter_id": state.voter,
        "difficulty_value": 3.0,
        "thread_id": state.seeded.thread_id,
    }
    key = f"playtest:vote-cast:{state.seeded.thread_id}:{state.voter}"
    return Legacy(payload, key, f"playtest:{state.seeded.playtest_id}", state)


async def _vote_remove(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    state = await _in_thread(flow, conn, voted=False)
    voter = state.seeded.voter_id
    payload = {"voter_id": voter, "thread_id": state.seeded.thread_id}
    key = f"playtest:vote-remove:{state.seeded.thread_id}:{voter}"
    return Legacy(payload, key, f"playtest:{state.seeded.playtest_id}", state)


async def _closed(conn: asyncpg.Connection, state: qp.Voted, verdict: str, verifier: int) -> str:
    """What the verdict's transaction commits; returns the job key it names.

    The verdict consumers act only for the playtest's recorded verdict, which they read from
    the transition the key names; the legacy key (`playtest:<verdict>:<thread id>`) names none.
    """
    await conn.execute(
        "UPDATE core.maps SET playtesting = $2, hidden = ($2 = 'Rejected') WHERE id = $1",
        state.seeded.map_id,
        "Rejected" if verdict == "force_deny" else "Approved",
    )
    await conn.execute(
        "UPDATE playtests.meta SET completed = true WHERE id = $1", state.seeded.playtest_id
    )
    # Who the verdict rewards is recorded with it, as the verdict routes record it.
    recipients = {
        "creator_ids": await playtests.creator_ids(conn, state.seeded.map_id),
        "voter_ids": await playtests.voter_ids(conn, state.seeded.thread_id),
    }
    transition_id = await playtests.insert_transition(
        conn, state.seeded.playtest_id, verdict, verifier, recipients
    )
    return f"playtest:{verdict}:{transition_id}"


async def _approve(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    state = await _in_thread(flow, conn, voted=True)
    key = await _closed(conn, state, "approve", await seed.user(conn, MODERATOR))
    payload = {
        "verifier_id": MODERATOR,
        "difficulty": "Easy +",
        "thread_id": state.seeded.thread_id,
        "primary_creator_id": state.seeded.creator_id,
        "code": state.seeded.code,
    }
    return Legacy(payload, key, f"playtest:{state.seeded.playtest_id}", state)


async def _force_accept(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    state = await _in_thread(flow, conn, voted=False)
    key = await _closed(conn, state, "force_accept", await seed.user(conn, MODERATOR))
    thread = state.seeded.thread_id
    payload = {"difficulty": "Extreme", "verifier_id": MODERATOR, "thread_id": thread}
    return Legacy(payload, key, f"playtest:{state.seeded.playtest_id}", state)


async def _force_deny(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    """An archived map's playtest closed by the bot (the archive route's shape)."""
    state = await _in_thread(flow, conn, voted=False)
    bot = flow.env.settings.bot_user_id
    key = await _closed(conn, state, "force_deny", bot)
    payload = {"verifier_id": bot, "reason": "archived", "thread_id": state.seeded.thread_id}
    return Legacy(payload, key, f"playtest:{state.seeded.playtest_id}", state)


async def _reset(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    state = await _in_thread(flow, conn, voted=False)
    thread = state.seeded.thread_id
    payload = {
        "verifier_id": MODERATOR,
        "reason": "Checkpoint skip fixed",
        "remove_votes": True,
        "remove_completions": False,
        "thread_id": thread,
    }
    key = f"playtest:reset:{thread}"
    return Legacy(
        payload,
        key,
        f"playtest:{state.seeded.playtest_id}",
        row=("playtests.meta", state.seeded.playtest_id),
    )


async def _tournament_run(conn: asyncpg.Connection) -> tuple[sc.ActiveCycle, int, int]:
    cycle = await sc.active_cycle(conn)
    player = await seed.user(conn)
    return cycle, player, await sc.tournament_completion(conn, cycle, player, video=sc.VIDEO)


async def _tournament_completion(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    cycle, player, tc_id = await _tournament_run(conn)
    payload = {
        "completion_id": tc_id,
        "cycle_id": cycle.cycle_id,
        "user_id": player,
        "time": 90.0,
        "video": sc.VIDEO,
        "screenshot": sc.SCREENSHOT,
    }
    key = f"tournament:submission:{player}:{tc_id}"
    return Legacy(payload, key, f"tournament-completion:{tc_id}")


async def _tournament_verification(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    cycle, player, tc_id = await _tournament_run(conn)
    await conn.execute(
        "UPDATE tournaments.completions SET status = 'verified' WHERE id = $1", tc_id
    )
    payload = {
        "tournament_completion_id": tc_id,
        "cycle_id": cycle.cycle_id,
        "user_id": player,
        "verified": True,
        "time": 90.0,
    }
    key = f"tournament:verify:{tc_id}"
    return Legacy(
        payload, key, f"tournament-completion:{tc_id}", row=("tournaments.completions", tc_id)
    )


async def _rollover(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    """The start of a live edition, as the bootstrap outbox row announced it."""
    live = await st.live_edition(conn, maps=1)
    row = await conn.fetchrow(
        "SELECT m.code, m.map_name, c.started_at FROM tournaments.cycles c "
        "JOIN core.maps m ON m.id = c.map_id WHERE c.id = $1",
        live.cycle_id,
    )
    started = row["started_at"].astimezone(UTC)
    payload = {
        "edition_id": live.edition_id,
        "results": [],
        "started": [
            {
                "cycle_id": live.cycle_id,
                "category_id": live.category_id,
                "map_id": live.map_ids[0],
                "map_code": row["code"],
                "map_name": row["map_name"],
                "started_at": started.isoformat(),
                "ends_at": (started + timedelta(days=7)).isoformat(),
            }
        ],
        "results_pending": False,
    }
    key = f"tournament:rollover:{live.edition_id}:start"
    return Legacy(payload, key, f"tournament-edition:{live.edition_id}")


async def _results(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    """A completed edition's deferred results: the winner ahead of the runner-up."""
    category_id = await st.category(conn)
    await conn.execute(
        "UPDATE tournaments.categories SET champion_role_id = $2 WHERE id = $1",
        category_id,
        qt.CHAMPION_ROLE,
    )
    map_id, _ = await seed.game_map(conn)
    now = datetime.now(UTC)
    # Completed already, so the live outbox drain leaves it alone; this message announces it.
    edition_id = await st.edition(
        conn,
        started_at=now - timedelta(days=8),
        ends_at=now - timedelta(days=1),
        status="completed",
        start_announced=True,
    )
    cycle_id = await st.cycle(conn, edition_id, category_id, map_id, "completed")
    places = [(1, await seed.user(conn), 50.0), (2, await seed.user(conn), 60.0)]
    for _, user_id, time in places:
        await st.submission(conn, cycle_id, user_id, map_id, time)
    standings = [
        {
            "rank": rank,
            "user_id": user_id,
            "name": f"user{user_id % 100000}",
            "time": time,
            "verified": True,
            "completion": False,
        }
        for rank, user_id, time in places
    ]
    winner, runner_up = places[0][1], places[1][1]
    payload = {
        "edition_id": edition_id,
        "results": [
            {
                "cycle_id": cycle_id,
                "category_id": category_id,
                "standings": standings,
                "winner_user_id": winner,
            }
        ],
    }
    key = f"tournament:results:{edition_id}"
    return Legacy(
        payload, key, f"tournament-edition:{edition_id}", qt.Ranked(edition_id, winner, runner_up)
    )


async def _xp_grant(flow: Flow, conn: asyncpg.Connection) -> Legacy:
    player = await seed.user(conn)
    payload = {
        "user_id": player,
        "amount": 10,
        "type": "Other",
        "previous_amount": 0,
        "new_amount": 10,
        "reason": None,
    }
    return Legacy(payload, f"xp:legacy:{player}", f"user:{player}", row=("core.users", player))


FIXTURES = [
    LegacyFixture(
        "api.completion.autoverification.failed",
        _autoverification_failed,
        refused_for="completion_id",
    ),
    LegacyFixture("api.completion.submission", _submission, qc.check_submission),
    LegacyFixture("api.completion.upvote", _upvote, refused_for="milestone"),
    LegacyFixture("api.completion.verification", _verification, refused_for="transition_id"),
    LegacyFixture(
        "api.completion.verification.delete", _verification_delete, qc.check_verification_delete
    ),
    LegacyFixture("api.map_edit.created", _map_edit_created, qp.check_map_edit_created),
    LegacyFixture("api.map_edit.resolved", _map_edit_resolved, qp.check_map_edit_resolved),
    LegacyFixture("api.newsfeed.create", _newsfeed, qf.check_newsfeed),
    LegacyFixture("api.notification.delivery", _notification, qf.check_notification),
    LegacyFixture("api.playtest.create", _playtest_create, qp.check_playtest_create),
    LegacyFixture(
        "api.playtest.vote.cast", _vote_cast, qp.posted_in_thread("api.playtest.vote.cast")
    ),
    LegacyFixture(
        "api.playtest.vote.remove", _vote_remove, qp.posted_in_thread("api.playtest.vote.remove")
    ),
    LegacyFixture("api.playtest.approve", _approve, qp.accepted("api.playtest.approve")),
    LegacyFixture(
        "api.playtest.force_accept", _force_accept, qp.accepted("api.playtest.force_accept")
    ),
    LegacyFixture("api.playtest.force_deny", _force_deny, qp.check_force_deny),
    LegacyFixture("api.playtest.reset", _reset, refused_for="transition_id"),
    LegacyFixture(
        "api.tournament.completion.created", _tournament_completion, qt.check_completion_created
    ),
    LegacyFixture(
        "api.tournament.verification.changed",
        _tournament_verification,
        refused_for="transition_id",
    ),
    LegacyFixture("api.tournament.rollover", _rollover, qt.announced("tournament:rollover:")),
    LegacyFixture("api.tournament.results", _results, qt.check_results),
    LegacyFixture("api.xp.grant", _xp_grant, refused_for="grant_id"),
]
