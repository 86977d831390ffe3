"""Queue consumers of the completions feature.

Every consumer reads the completion's current state from the API first and acts only if its
job still describes it: a review card for a run no longer pending, or a verdict older than the
completion's latest one, does nothing. Sends are bound per effect key (a replay reuses them),
API mutations carry receipts (a replay gets the recorded result), and edits, deletes and role
changes are reconciled to the state read now.
"""

from __future__ import annotations

import logging
from typing import Any

from genji_sdk.completions import CompletionAnnouncement, CompletionXpResponse, PostUpvotes
from genji_sdk.mastery import MasteryResponse
from genji_sdk.newsfeed import NewsfeedCreatedResponse
from genji_sdk.notifications import NotificationCreatedResponse
from genji_sdk.payloads import (
    CompletionCreatedEvent,
    FailedAutoverifyEvent,
    UpvoteUpdateEvent,
    VerificationChangedEvent,
    VerificationMessageDeleteEvent,
)
from genji_sdk.sends import Mirror
from genji_sdk.users import SkillRankResponse
from genji_sdk.views import OpenView

from genji_bot.consumers import JobRun, queue_consumer
from genji_bot.effects.port import Channel, Forward, NotFound, Outgoing
from genji_bot.features.completions_cards import (
    autoverification_notice,
    completion_card,
    mastery_message,
    verification_card,
)

log = logging.getLogger("genji.bot.completions")

RECORD_TYPES = frozenset({"Record", "World Record"})


async def _view(job: JobRun, completion_id: int) -> CompletionAnnouncement:
    view: CompletionAnnouncement = await job.api.get(
        f"/completions/{completion_id}/announcement", CompletionAnnouncement
    )
    return view


async def _notify(
    job: JobRun, effect: str, user_id: int, event_type: str, title: str, body: str, **meta: Any
) -> None:
    await job.api.effect(
        "POST",
        "/notifications/events",
        effect,
        json={
            "user_id": user_id,
            "event_type": event_type,
            "title": title,
            "body": body,
            "metadata": meta,
        },
        type=NotificationCreatedResponse,
    )


async def _delete(job: JobRun, effect: str, channel_id: int, message_id: int) -> None:
    await job.step(effect)
    job.views.retire(message_id)
    await job.port.delete(channel_id, message_id)
    await job.step(effect, "after")


@queue_consumer(CompletionCreatedEvent)
async def submission_created(payload: CompletionCreatedEvent, job: JobRun) -> None:
    """Post the review card once; a run no longer pending gets none."""
    view = await _view(job, payload.completion_id)
    queue = job.settings.channels.verification_queue
    if view.state != "pending":
        log.info("completion %s is %s; no review card", view.id, view.state)
        # A card this job posted before the run was superseded (deleting twice is harmless).
        if view.verification_id is not None:
            await _delete(job, "delete:superseded-card", queue, view.verification_id)
        return
    if view.verification_id is not None:
        return
    sent = await job.send(
        "card:verification",
        Channel(queue),
        verification_card(view),
        mirror=Mirror("completion.verification_message", view.id),
    )
    if sent is not None:
        job.views.register(
            OpenView(kind="completion.verification", entity_id=view.id, message_id=sent.message_id)
        )
    # A faster run may have superseded this one while the card was being posted; its cleanup
    # job only knew the message ids recorded before.
    if sent is not None and (await _view(job, view.id)).state != "pending":
        await _delete(job, "delete:superseded-card", queue, sent.message_id)


async def _announce(view: CompletionAnnouncement, job: JobRun) -> None:
    channels = job.settings.channels
    # A run verified again keeps the card (and the upvotes) of its first verification.
    if view.message_id is None:
        await job.send(
            "card:completion",
            Channel(channels.completions),
            completion_card(view, view.upvotes),
            mirror=Mirror("completion.message", view.id),
        )
    await _notify(
        job,
        "notification:verification",
        view.user_id,
        "verification_approved",
        "Completion verified",
        f"Your completion on {view.code} has been verified.",
        completion_id=view.id,
        map_code=view.code,
    )
    if not view.official:
        return
    reward = await job.api.effect(
        "POST", f"/completions/{view.id}/xp", "xp:verification", json={}, type=CompletionXpResponse
    )
    if reward.xp_type in RECORD_TYPES and reward.rank is not None:
        await job.api.effect(
            "POST",
            "/newsfeed",
            "newsfeed:record",
            json={
                "type": "record",
                "code": view.code,
                "map_name": view.map_name,
                "time": view.time,
                "video": view.video,
                "rank_num": reward.rank,
                "name": view.name,
                "difficulty": view.difficulty,
            },
            type=NewsfeedCreatedResponse,
        )
    mastery = await job.api.effect(
        "POST",
        "/maps/mastery",
        "mastery:recompute",
        json={"user_id": view.user_id, "map_name": view.map_name},
        type=MasteryResponse,
    )
    if mastery.earned and mastery.level is not None:
        await _notify(
            job,
            "notification:mastery",
            view.user_id,
            "mastery_earned",
            "Mastery earned",
            f"You earned the {mastery.level} mastery medal for {view.map_name}.",
            map_name=view.map_name,
            level=mastery.level,
        )
        await job.send(
            "card:mastery",
            Channel(channels.xp),
            mastery_message(view.name, view.map_name, mastery.level),
        )


async def _sync_skill_roles(job: JobRun, user_id: int, name: str) -> None:
    """Make the member hold the role of their current rank, read now, and no other skill role;
    a gained rank is announced (receipts keyed by the rank) before its role is given."""
    roles = job.settings.skill_roles
    current = await job.api.get(f"/users/{user_id}/rank", SkillRankResponse)
    rank = current.rank
    held = await job.port.member_roles(user_id)
    if held is None:
        log.info("user %s is not in the guild; skill roles left alone", user_id)
        return
    target = roles.of(rank)
    wanted = frozenset() if target is None else frozenset({target})
    add = wanted - held
    remove = (roles.all() - wanted) & held
    if add and current.ranked:
        await job.api.effect(
            "POST",
            "/newsfeed",
            f"newsfeed:role:{rank}",
            json={"type": "role", "user_id": user_id, "name": name, "added": [rank]},
            type=NewsfeedCreatedResponse,
        )
        await _notify(
            job,
            f"notification:skill-role:{rank}",
            user_id,
            "skill_role_update",
            "Skill role updated",
            f"You have been given the {rank} role.",
            rank=rank,
        )
    if add or remove:
        await job.step("roles:skill")
        await job.port.set_member_roles(user_id, add=add, remove=remove)
        await job.step("roles:skill", "after")


@queue_consumer(VerificationChangedEvent)
async def verification_changed(payload: VerificationChangedEvent, job: JobRun) -> None:
    """Announce a verdict, unless the completion has had a newer one since."""
    view = await _view(job, payload.completion_id)
    if view.latest_transition_id != payload.transition_id:
        log.info(
            "verdict %s of completion %s is superseded by %s; nothing applied",
            payload.transition_id,
            view.id,
            view.latest_transition_id,
        )
        return
    if payload.verified:
        await _announce(view, job)
    else:
        reason = payload.reason or "No reason given."
        await _notify(
            job,
            "notification:verification",
            view.user_id,
            "verification_rejected",
            "Completion rejected",
            f"Your completion on {view.code} was rejected. Reason: {reason}",
            completion_id=view.id,
            map_code=view.code,
            reason=payload.reason,
        )
    if view.verification_id is not None:
        await _delete(
            job,
            "delete:verification",
            job.settings.channels.verification_queue,
            view.verification_id,
        )
    await _sync_skill_roles(job, view.user_id, view.name)


@queue_consumer(UpvoteUpdateEvent)
async def upvote_milestone(payload: UpvoteUpdateEvent, job: JobRun) -> None:
    """Show the post's current count, and forward it once for this milestone."""
    post = await job.api.get(f"/completions/upvoting/{payload.message_id}", PostUpvotes)
    view = await _view(job, post.completion_id)
    channel = job.settings.channels.completions
    await job.step("edit:upvotes")
    try:
        await job.port.edit(channel, payload.message_id, completion_card(view, post.upvotes))
    except NotFound:
        log.warning("completion post %s is gone; nothing to refresh", payload.message_id)
        return
    await job.step("edit:upvotes", "after")
    await job.send(
        f"forward:upvotes:{payload.milestone}",
        Forward(job.settings.channels.upvotes, channel, payload.message_id),
        Outgoing(),
    )


@queue_consumer(VerificationMessageDeleteEvent)
async def verification_message_deleted(
    payload: VerificationMessageDeleteEvent, job: JobRun
) -> None:
    """Remove a superseded run's review card; one already gone counts as removed."""
    await _delete(
        job,
        "delete:verification",
        job.settings.channels.verification_queue,
        payload.verification_id,
    )


@queue_consumer(FailedAutoverifyEvent)
async def autoverification_failed(payload: FailedAutoverifyEvent, job: JobRun) -> None:
    """One staff notice per OCR decision (this job) in the job alerts channel."""
    await job.send(
        "notice:autoverification",
        Channel(job.settings.channels.job_alerts),
        autoverification_notice(payload),
    )
