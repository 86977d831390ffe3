"""Queue consumers of the playtest feature: the forum thread of a playtest and its verdicts.

Every handler re-reads the playtest from the API before acting, so an old transition never
applies to a playtest that has moved on: a closed playtest gets no new thread, a superseded
reset neither refreshes nor notifies, and a verdict acts only when it is the playtest's verdict.
Domain mutations go through receipt-guarded endpoints with one effect key per recipient; thread
messages are bound sends; thread state, starter-message views and deletions are reconciled to
the current state (so repeating them is harmless).
"""

from __future__ import annotations

import logging

import msgspec
from genji_sdk.notifications import NotificationCreatedResponse
from genji_sdk.payloads import (
    DifficultyAll,
    PlaytestApprovedEvent,
    PlaytestCreatedEvent,
    PlaytestForceAcceptedEvent,
    PlaytestForceDeniedEvent,
    PlaytestResetEvent,
    PlaytestVoteCastEvent,
    PlaytestVoteRemovedEvent,
)
from genji_sdk.playtests import PlaytestStateResponse
from genji_sdk.sends import Mirror
from genji_sdk.views import OpenView

from genji_bot.consumers import JobRun, queue_consumer
from genji_bot.effects.port import Channel, NewForumThread, NotFound
from genji_bot.features import playtest_cards as cards

log = logging.getLogger(__name__)


def transition_id(job: JobRun) -> int:
    """The persisted transition a playtest job was enqueued for (the end of its event key)."""
    return int(job.context.event_key.rsplit(":", 1)[1])


async def _by_thread(job: JobRun, thread_id: int) -> PlaytestStateResponse:
    state: PlaytestStateResponse = await job.api.get(
        f"/maps/playtests/threads/{thread_id}", PlaytestStateResponse
    )
    return state


async def _refresh_view(job: JobRun, state: PlaytestStateResponse, thread_id: int) -> None:
    """Re-render the starter message (the thread's first message shares its id)."""
    await job.step("thread:view")
    try:
        await job.port.edit(thread_id, thread_id, cards.playtest_view(state))
    except NotFound:
        log.warning("playtest %s: the starter message of thread %s is gone", state.id, thread_id)
    await job.step("thread:view", "after")


async def _close_thread(
    job: JobRun, state: PlaytestStateResponse, thread_id: int, status: str
) -> None:
    await job.step("thread:close")
    job.views.retire(thread_id)
    try:
        await job.port.update_thread(
            thread_id, archived=True, locked=True, tags=cards.thread_tags(state, status)
        )
    except NotFound:
        log.warning("playtest %s: thread %s is gone, nothing to close", state.id, thread_id)
    await job.step("thread:close", "after")


async def _delete_verification(job: JobRun, state: PlaytestStateResponse) -> None:
    if state.verification_id is None:
        return
    await job.step("verification:delete")
    await job.port.delete(job.settings.channels.verification_queue, state.verification_id)
    await job.step("verification:delete", "after")


async def _notify_creator(
    job: JobRun, state: PlaytestStateResponse, thread_id: int, notice: tuple[str, str]
) -> None:
    """One playtest_update notification; in the thread when the creator takes none on Discord."""
    title, body = notice
    created: NotificationCreatedResponse = await job.api.effect(
        "POST",
        "/notifications/events",
        "notification:creator",
        json={
            "user_id": state.primary.id,
            "event_type": "playtest_update",
            "title": title,
            "body": body,
            "discord_message": body,
            "metadata": {"playtest_id": state.id, "code": state.code},
        },
        type=NotificationCreatedResponse,
    )
    if created.job_status is None:
        await job.send("thread:notice", Channel(thread_id), cards.thread_notice(state, title, body))


def _superseded(job: JobRun, state: PlaytestStateResponse, kinds: tuple[str, ...]) -> bool:
    """True (and logged) unless this job's transition is the playtest's verdict."""
    verdict = state.verdict
    if verdict is not None and verdict.id == transition_id(job) and verdict.kind in kinds:
        return False
    log.info(
        "playtest %s: %s %s is not its verdict (now %s); nothing to do",
        state.id,
        job.context.event_name,
        job.context.event_key,
        verdict.kind if verdict else "open",
    )
    return True


@queue_consumer(PlaytestCreatedEvent)
async def playtest_created(payload: PlaytestCreatedEvent, job: JobRun) -> None:
    state: PlaytestStateResponse = await job.api.get(
        f"/maps/playtests/{payload.playtest_id}", PlaytestStateResponse
    )
    if state.completed:
        log.info("playtest %s closed before its thread was made; nothing to do", state.id)
        return
    thread_id = state.thread_id
    if thread_id is None:
        forum = NewForumThread(
            job.settings.channels.playtest_forum,
            cards.thread_name(state),
            cards.thread_tags(state, "Open"),
        )
        sent = await job.send(
            "thread:create",
            forum,
            cards.placeholder(state),
            mirror=Mirror("playtest.thread", state.id),
        )
        assert sent is not None and sent.thread_id is not None
        thread_id = sent.thread_id
    job.views.register(OpenView(kind="playtest.thread", entity_id=state.id, message_id=thread_id))
    if state.hidden:
        await job.api.effect("PATCH", f"/maps/{state.code}", "map:unhide", json={"hidden": False})
    await _refresh_view(job, msgspec.structs.replace(state, thread_id=thread_id), thread_id)
    await job.send("thread:ping", Channel(thread_id), cards.creator_ping(state))


async def _vote_changed(job: JobRun, thread_id: int, voter_id: int, cast: float | None) -> None:
    state = await _by_thread(job, thread_id)
    if not state.completed:
        await job.step("thread:unarchive")
        try:
            await job.port.update_thread(thread_id, archived=False)
        except NotFound:
            log.warning("playtest %s: thread %s is gone", state.id, thread_id)
            return
        await job.step("thread:unarchive", "after")
    transition = transition_id(job)
    message = cards.vote_removed(voter_id) if cast is None else cards.vote_cast(voter_id, cast)
    await job.send(f"thread:vote:{transition}", Channel(thread_id), message)
    if state.finalizable_vote_id == transition and not state.completed:
        await job.send(
            f"thread:finalizable:{transition}", Channel(thread_id), cards.finalizable(state)
        )
    await _refresh_view(job, state, thread_id)


@queue_consumer(PlaytestVoteCastEvent)
async def vote_cast(payload: PlaytestVoteCastEvent, job: JobRun) -> None:
    await _vote_changed(job, payload.thread_id, payload.voter_id, payload.difficulty_value)


@queue_consumer(PlaytestVoteRemovedEvent)
async def vote_removed(payload: PlaytestVoteRemovedEvent, job: JobRun) -> None:
    await _vote_changed(job, payload.thread_id, payload.voter_id, None)


async def _accepted(job: JobRun, thread_id: int, difficulty: DifficultyAll) -> None:
    """Approve and force accept: rewards and the announcement once each, then the thread."""
    state = await _by_thread(job, thread_id)
    if _superseded(job, state, ("approve", "force_accept")):
        return
    assert state.verdict is not None
    await _notify_creator(job, state, thread_id, cards.approved_notice(state, difficulty))
    reason = f"Playtest of map {state.code}"
    for user_id in state.verdict.details.get("creator_ids", []):
        await job.api.effect(
            "POST",
            f"/lootbox/users/{user_id}/xp",
            f"xp:creator:{user_id}",
            json={"amount": cards.MAP_SUBMISSION_XP, "type": "Map Submission", "reason": reason},
        )
    for user_id in state.verdict.details.get("voter_ids", []):
        await job.api.effect(
            "POST",
            f"/lootbox/users/{user_id}/xp",
            f"xp:voter:{user_id}",
            json={"amount": cards.PLAYTEST_XP, "type": "Playtest", "reason": reason},
        )
    await job.api.effect(
        "POST",
        "/newsfeed",
        "newsfeed:new-map",
        json={
            "type": "new_map",
            "code": state.code,
            "map_name": state.map_name,
            "difficulty": difficulty,
            "creators": [c.name for c in state.creators],
            "official": state.official,
        },
    )
    await _close_thread(job, state, thread_id, "Complete")
    await _delete_verification(job, state)


@queue_consumer(PlaytestApprovedEvent)
async def playtest_approved(payload: PlaytestApprovedEvent, job: JobRun) -> None:
    await _accepted(job, payload.thread_id, payload.difficulty)


@queue_consumer(PlaytestForceAcceptedEvent)
async def playtest_force_accepted(payload: PlaytestForceAcceptedEvent, job: JobRun) -> None:
    await _accepted(job, payload.thread_id, payload.difficulty)


@queue_consumer(PlaytestForceDeniedEvent)
async def playtest_force_denied(payload: PlaytestForceDeniedEvent, job: JobRun) -> None:
    state = await _by_thread(job, payload.thread_id)
    if _superseded(job, state, ("force_deny",)):
        return
    await _notify_creator(job, state, payload.thread_id, cards.denied_notice(state, payload.reason))
    await _close_thread(job, state, payload.thread_id, "Cancelled")
    await _delete_verification(job, state)


@queue_consumer(PlaytestResetEvent)
async def playtest_reset(payload: PlaytestResetEvent, job: JobRun) -> None:
    state = await _by_thread(job, payload.thread_id)
    latest = state.last_reset
    if state.completed or latest is None or latest.id != payload.transition_id:
        log.info(
            "playtest %s: reset %s is superseded (closed: %s, newest reset %s, generation %s)",
            state.id,
            payload.transition_id,
            state.completed,
            latest.id if latest else None,
            state.reset_generation,
        )
        return
    await _notify_creator(job, state, payload.thread_id, cards.reset_notice(state, payload.reason))
    await _refresh_view(job, state, payload.thread_id)
    await _delete_verification(job, state)
