"""Q26 cases of map edits and playtests.

Playtests start in a forum thread that exists in the recorded Discord world (its starter
message is the thread's own id), as the playtest-create consumer would have left it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from tests.bot.q26_flow import Flow, Q26Case, channel, producer_case
from tests.support import seed_map_edits
from tests.support.seed import game_map, user
from tests.support.seed_maps import SeededPlaytest, playtest, vote


@dataclass(frozen=True)
class Voted:
    seeded: SeededPlaytest
    voter: int | None
    """Who voted before the verdict (None: nobody)."""


async def _in_thread(flow: Flow, *, voted: bool = False) -> Voted:
    thread_id = await flow.existing_thread()
    seeded = await playtest(flow.env.owner, thread_id=thread_id)
    voter = await vote(flow.env.owner, seeded, 3.0) if voted else None
    return Voted(seeded, voter)


def _thread_producer(case_name: str, *, voted: bool = False) -> Any:
    """A producer case's operation on a playtest whose thread exists."""

    async def produce(flow: Flow) -> Voted:
        state = await _in_thread(flow, voted=voted)
        await flow.call(producer_case(case_name), state.seeded)
        return state

    return produce


async def check_map_edit_created(flow: Flow, body: dict[str, Any]) -> None:
    job = await flow.consumed_job("api.map_edit.created")
    card = flow.sent_once(job, channel(flow.channels.verification_queue))
    stored = await flow.env.owner.fetchval(
        "SELECT message_id FROM maps.edit_requests WHERE code = $1", body["code"]
    )
    assert stored == card["message_id"]


async def _map_edit_resolved_produce(flow: Flow) -> int:
    """A pending edit whose moderation card exists, rejected through the resolve route."""
    owner = flow.env.owner
    card = await flow.existing_message(flow.channels.verification_queue)
    map_id, code = await game_map(owner)
    edit_id = await seed_map_edits.edit_request(
        owner, map_id, code, await user(owner), {"map_name": "Lijiang Tower"}
    )
    await owner.execute(
        "UPDATE maps.edit_requests SET message_id = $2 WHERE id = $1", edit_id, card.message_id
    )
    await flow.call(producer_case("map-edit-resolve-reject"), (edit_id, await user(owner)))
    return card.message_id


async def check_map_edit_resolved(flow: Flow, card_id: int) -> None:
    job = await flow.consumed_job("api.map_edit.resolved")
    assert card_id not in flow.stack.recorder.messages()
    assert [op["message_id"] for op in flow.operations(job, "delete")] == [card_id]


async def check_playtest_create(flow: Flow, state: dict[str, Any]) -> None:
    job = await flow.consumed_job("api.playtest.create")
    thread = flow.sent_once(job, f"forum:{flow.channels.playtest_forum}")
    stored = await flow.env.owner.fetchval(
        "SELECT p.thread_id FROM playtests.meta p JOIN core.maps m ON m.id = p.map_id "
        "WHERE m.code = $1",
        state["code"],
    )
    assert stored is not None and stored == thread["thread_id"]


def posted_in_thread(event: str) -> Any:
    async def check(flow: Flow, state: Voted) -> None:
        job = await flow.consumed_job(event)
        flow.sent_once(job, channel(state.seeded.thread_id))

    return check


async def _grants(flow: Flow, user_id: int) -> list[str]:
    rows = await flow.env.owner.fetch(
        "SELECT type FROM lootbox.xp_grants WHERE user_id = $1 ORDER BY id", user_id
    )
    return [row["type"] for row in rows]


def _closed(flow: Flow, job: UUID, thread_id: int) -> None:
    updates = [op for op in flow.operations(job, "thread") if op["thread_id"] == thread_id]
    assert updates and updates[-1]["archived"] is True, updates


def accepted(event: str) -> Any:
    """Creators get map-submission XP, voters playtest XP, the thread is closed."""

    async def check(flow: Flow, state: Voted) -> None:
        job = await flow.consumed_job(event)
        assert await _grants(flow, state.seeded.creator_id) == ["Map Submission"]
        if state.voter is not None:
            assert await _grants(flow, state.voter) == ["Playtest"]
        _closed(flow, job, state.seeded.thread_id)

    return check


async def check_force_deny(flow: Flow, state: Voted) -> None:
    job = await flow.consumed_job("api.playtest.force_deny")
    _closed(flow, job, state.seeded.thread_id)
    assert await _grants(flow, state.seeded.creator_id) == []


async def _reset_check(flow: Flow, state: Voted) -> None:
    await flow.consumed_job("api.playtest.reset")
    # The creator keeps the default preference (direct messages on), so is notified.
    notified = await flow.env.owner.fetchval(
        "SELECT count(*) FROM notifications.events "
        "WHERE user_id = $1 AND event_type = 'playtest_update'",
        state.seeded.creator_id,
    )
    assert notified == 1


async def _vote_remove_produce(flow: Flow) -> Voted:
    state = await _in_thread(flow)
    seeded = state.seeded
    await flow.env.owner.execute(
        "INSERT INTO playtests.votes (user_id, map_id, playtest_thread_id, difficulty) "
        "VALUES ($1, $2, $3, 2.0)",
        seeded.voter_id,
        seeded.map_id,
        seeded.thread_id,
    )
    await flow.call(producer_case("vote-remove"), seeded)
    return state


CASES = [
    Q26Case(
        "api.map_edit.created",
        lambda flow: flow.produce("map-edit-create"),
        check_map_edit_created,
    ),
    Q26Case("api.map_edit.resolved", _map_edit_resolved_produce, check_map_edit_resolved),
    Q26Case(
        "api.playtest.create",
        lambda flow: flow.produce("map-create-playtest"),
        check_playtest_create,
    ),
    Q26Case(
        "api.playtest.vote.cast",
        _thread_producer("vote-cast"),
        posted_in_thread("api.playtest.vote.cast"),
    ),
    Q26Case(
        "api.playtest.vote.remove",
        _vote_remove_produce,
        posted_in_thread("api.playtest.vote.remove"),
    ),
    Q26Case(
        "api.playtest.approve",
        _thread_producer("playtest-approve", voted=True),
        accepted("api.playtest.approve"),
    ),
    Q26Case(
        "api.playtest.force_accept",
        _thread_producer("playtest-force-accept"),
        accepted("api.playtest.force_accept"),
    ),
    Q26Case(
        "api.playtest.force_deny",
        _thread_producer("playtest-force-deny"),
        check_force_deny,
    ),
    Q26Case(
        "api.playtest.reset",
        _thread_producer("playtest-reset", voted=True),
        _reset_check,
    ),
]
