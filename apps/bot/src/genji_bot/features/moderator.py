"""Map edit requests in the verification queue: post the moderation card, remove it once resolved.

The card's message id is written onto the edit request with the send's binding (the
`map_edit.verification_message` mirror), so a replay, or a request that already has its card,
posts nothing new; resolution deletes that message, and a message already gone counts as deleted.
"""

from __future__ import annotations

import logging

from genji_sdk.map_edits import MapEditResponse
from genji_sdk.payloads import MapEditCreatedEvent, MapEditResolvedEvent
from genji_sdk.sends import Mirror, MirrorKind
from genji_sdk.views import OpenView

from genji_bot.consumers import JobRun, queue_consumer
from genji_bot.effects.port import Channel
from genji_bot.features.moderator_cards import verification_card

log = logging.getLogger("genji.bot.moderator")

CARD = "verification-card"
CARD_DELETE = "verification-card-delete"
MESSAGE_MIRROR: MirrorKind = "map_edit.verification_message"


async def _edit(job: JobRun, edit_request_id: int) -> MapEditResponse:
    edit: MapEditResponse = await job.api.get(f"/maps/map-edits/{edit_request_id}", MapEditResponse)
    return edit


@queue_consumer(MapEditCreatedEvent)
async def map_edit_created(payload: MapEditCreatedEvent, job: JobRun) -> None:
    edit = await _edit(job, payload.edit_request_id)
    if edit.accepted is not None:
        log.info("edit request %d was resolved before its card was posted", edit.id)
        return
    if edit.message_id is not None:
        log.info("edit request %d already has its card (message %d)", edit.id, edit.message_id)
        return
    sent = await job.send(
        CARD,
        Channel(job.settings.channels.verification_queue),
        verification_card(edit),
        mirror=Mirror(MESSAGE_MIRROR, edit.id),
    )
    if sent is not None:
        job.views.register(
            OpenView(kind="map_edit.verification", entity_id=edit.id, message_id=sent.message_id)
        )


@queue_consumer(MapEditResolvedEvent)
async def map_edit_resolved(payload: MapEditResolvedEvent, job: JobRun) -> None:
    edit = await _edit(job, payload.edit_request_id)
    if edit.message_id is None:
        log.info("edit request %d has no card to remove", edit.id)
        return
    await job.step(CARD_DELETE)
    job.views.retire(edit.message_id)
    await job.port.delete(job.settings.channels.verification_queue, edit.message_id)
    await job.step(CARD_DELETE, "after")
