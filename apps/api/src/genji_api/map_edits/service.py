"""Map edit requests: create, resolve, record the moderation message; one transaction each."""

from __future__ import annotations

import asyncpg
import msgspec
from genji_sdk.newsfeed import NewsfeedMapEdit
from genji_sdk.payloads import MapEditCreatedEvent, MapEditResolvedEvent

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.map_edits import changes
from genji_api.map_edits import repository as edits
from genji_api.map_edits.models import (
    MapEditCreated,
    MapEditCreateRequest,
    MapEditMessageRequest,
    MapEditResolveRequest,
    MapEditResponse,
)
from genji_api.maps.archive import set_archive_status
from genji_api.maps.models import ArchiveRequest
from genji_api.maps.playtest_entry import put_in_playtest
from genji_api.newsfeed.entries import create_newsfeed
from genji_api.notifications.dispatch import create_and_dispatch
from genji_api.queue.enqueue import enqueue_job
from genji_api.users.repository import lock_user

# The effects handlers request here, and the jobs that may request each.
MAP_EDIT_MESSAGE_EFFECTS = rule(message=["api.map_edit.created"])

PENDING_CONFLICT = "There is already a pending edit request for this map."
ALREADY_RESOLVED = "This edit request has already been resolved."
ARCHIVE_REASON_LIMIT = 1000  # ArchiveRequest.reason's bound


def _entity(edit_id: int) -> str:
    return f"map-edit:{edit_id}"


async def create_edit_request(
    database: Database, request: MapEditCreateRequest, *, trace: Trace
) -> MapEditCreated:
    proposed = request.proposed_changes.as_dict()
    if not proposed:
        raise BadRequestError("proposed_changes must name at least one field.")

    async def work(conn: asyncpg.Connection) -> MapEditCreated:
        game_map = await edits.map_by_code(conn, request.code)
        if game_map is None:
            raise NotFoundError("Map not found.", extra={"code": request.code})
        await lock_user(conn, request.created_by)
        if await edits.pending_exists(conn, game_map.id):
            raise ConflictError(PENDING_CONFLICT)
        try:
            # A savepoint, so a lost race on the partial unique index is a clean 409.
            async with conn.transaction():
                edit_id = await edits.insert(
                    conn,
                    map_id=game_map.id,
                    code=game_map.code,
                    proposed_changes=proposed,
                    reason=request.reason,
                    created_by=request.created_by,
                )
        except asyncpg.UniqueViolationError as error:
            if error.constraint_name != edits.ONE_PENDING_PER_MAP:
                raise
            raise ConflictError(PENDING_CONFLICT) from None
        job = await enqueue_job(
            conn,
            payload=MapEditCreatedEvent(edit_request_id=edit_id),
            event_key=f"map_edit:created:{edit_id}",
            entity_key=_entity(edit_id),
            trace=trace,
        )
        return MapEditCreated(id=edit_id, job_status=job)

    return await database.transaction(work)


async def _apply(
    conn: asyncpg.Connection, edit: MapEditResponse, *, bot_user_id: int, trace: Trace
) -> None:
    current = await edits.lock_map(conn, edit.map_id)
    applied = changes.plan(current, edit.proposed_changes)
    await edits.update_map(conn, edit.map_id, applied.columns)
    if applied.archived is not None:
        # The archive path closes an archived map's playtest and announces the change itself.
        await set_archive_status(
            conn,
            ArchiveRequest(
                codes=[current.code],
                archived=applied.archived,
                reason=edit.reason[:ARCHIVE_REASON_LIMIT],
            ),
            bot_user_id=bot_user_id,
            trace=trace,
        )
    if applied.announced:
        await create_newsfeed(
            conn,
            NewsfeedMapEdit(code=current.code, changes=applied.announced, reason=edit.reason),
            trace=trace,
        )


async def _notify(
    conn: asyncpg.Connection, edit: MapEditResponse, request: MapEditResolveRequest, trace: Trace
) -> None:
    code = edit.code
    if request.accepted:
        event_type = "map_edit_approved"
        title = "Map edit approved"
        body = f"Your edit request for {code} was approved."
    else:
        event_type = "map_edit_rejected"
        title = "Map edit rejected"
        reason = request.rejection_reason or "No reason given."
        body = f"Your edit request for {code} was rejected. Reason: {reason}"
    await create_and_dispatch(
        conn,
        user_id=edit.created_by,
        event_type=event_type,  # type: ignore[arg-type]
        title=title,
        body=body,
        metadata={"edit_request_id": edit.id, "code": code},
        trace=trace,
    )


async def _send_to_playtest(conn: asyncpg.Connection, map_id: int, trace: Trace) -> None:
    """An accepted edit may send its map back to playtest; one already there stays as it is."""
    current = await edits.map_stage(conn, map_id)
    if current is not None and current.playtesting != "In Progress":
        await put_in_playtest(conn, current.code, trace=trace)


async def resolve_edit_request(
    database: Database,
    edit_id: int,
    request: MapEditResolveRequest,
    *,
    bot_user_id: int,
    trace: Trace,
) -> None:
    async def work(conn: asyncpg.Connection) -> None:
        edit = await edits.fetch(conn, edit_id, for_update=True)
        if edit is None:
            raise NotFoundError("Edit request not found.", extra={"edit_request_id": edit_id})
        if edit.accepted is not None:
            raise ConflictError(ALREADY_RESOLVED)
        await lock_user(conn, request.resolved_by)
        if request.accepted:
            await _apply(conn, edit, bot_user_id=bot_user_id, trace=trace)
            if request.send_to_playtest:
                await _send_to_playtest(conn, edit.map_id, trace)
        await edits.mark_resolved(
            conn,
            edit_id,
            accepted=request.accepted,
            resolved_by=request.resolved_by,
            rejection_reason=None if request.accepted else request.rejection_reason,
        )
        await _notify(conn, edit, request, trace)
        await enqueue_job(
            conn,
            payload=MapEditResolvedEvent(
                edit_request_id=edit_id,
                accepted=request.accepted,
                resolved_by=request.resolved_by,
                rejection_reason=None if request.accepted else request.rejection_reason,
            ),
            event_key=f"map_edit:resolved:{edit_id}",
            entity_key=_entity(edit_id),
            trace=trace,
        )

    await database.transaction(work)


class _MessageEffect(msgspec.Struct, frozen=True, kw_only=True):
    """What a replayed effect must match: the request and the edit request it names."""

    edit_request_id: int
    message_id: int


async def set_message(
    database: Database,
    edit_id: int,
    request: MapEditMessageRequest,
    effect: EffectContext | None,
) -> MapEditResponse:
    async def work(conn: asyncpg.Connection) -> MapEditResponse:
        async def perform() -> MapEditResponse:
            if not await edits.set_message(conn, edit_id, request.message_id):
                raise NotFoundError("Edit request not found.", extra={"edit_request_id": edit_id})
            edit = await edits.fetch(conn, edit_id)
            assert edit is not None
            return edit

        fingerprinted = _MessageEffect(edit_request_id=edit_id, message_id=request.message_id)
        return await once(
            conn, effect, fingerprinted, MapEditResponse, perform, rule=MAP_EDIT_MESSAGE_EFFECTS
        )

    return await database.transaction(work)


async def get_edit_request(database: Database, edit_id: int) -> MapEditResponse:
    edit = await database.read(lambda conn: edits.fetch(conn, edit_id))
    if edit is None:
        raise NotFoundError("Edit request not found.", extra={"edit_request_id": edit_id})
    return edit
