"""Decide, without writing, what each exported message becomes.

Rules in order: a second transport copy of a logical event is a duplicate of the first; the
retired cycle queues are obsolete; a queue with no entrypoint is unsupported; a body that is
not the SDK payload or breaks the database contract is malformed; a message whose producer key
cannot be derived, whose domain row is gone, that a legacy consumer claimed or whose legacy
job row says it started needs reconciliation (a claim alone is never proof of success); domain
evidence or a succeeded job of the same key makes it already completed; the rest is imported.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
from genji_queue.payload_check import payload_problem
from genji_sdk import REGISTRY
from genji_sdk.errors import MalformedPayloadError

from genji_api.cutover import evidence, keys
from genji_api.cutover.manifest import ExportedMessage, LoadedManifest, body_object, body_text
from genji_api.cutover.manifest import original_job_id as find_original_job_id

OBSOLETE_QUEUES = frozenset({"api.tournament.cycle_started", "api.tournament.cycle_completed"})
LEGACY_EVENTS = frozenset(spec.name for spec in REGISTRY.owned_by("bot"))
DEAD_LETTER_SUFFIX = ".dlq"


@dataclass
class Planned:
    source_id: str
    queue: str
    disposition: str
    reason: str
    detail: dict[str, Any]
    event_name: str | None = None
    event_key: str | None = None
    entity_key: str | None = None
    payload: msgspec.Struct | None = None
    keep_id: UUID | None = None
    """The original public id the imported job keeps."""
    job_id: UUID | None = None
    duplicate_of: Planned | None = field(default=None, repr=False)


def base_queue(queue: str) -> str:
    return queue.removesuffix(DEAD_LETTER_SUFFIX)


def _preserved(message: ExportedMessage, queue: str) -> dict[str, Any]:
    """What the disposition keeps of a message: body and routing, header names only (the
    legacy publisher copied HTTP request headers, credentials included, into AMQP headers)."""
    props = message.props
    return {
        "payload": message.payload,
        "payload_encoding": message.payload_encoding,
        "message_id": props.message_id,
        "correlation_id": props.correlation_id,
        "routing_key": message.routing_key,
        "redelivered": message.redelivered,
        "dead_lettered": queue.endswith(DEAD_LETTER_SUFFIX),
        "timestamp": props.timestamp,
        "header_names": sorted(props.headers),
    }


def _transport_identity(message: ExportedMessage, event: str) -> tuple[str, str, str]:
    if message.props.message_id:
        return (event, "message", message.props.message_id)
    return (event, "body", hashlib.sha256(message.payload.encode()).hexdigest())


class _Plan:
    def __init__(self, conn: asyncpg.Connection, import_id: str) -> None:
        self.conn = conn
        self.import_id = import_id
        self.seen: dict[tuple[str, str, str], Planned] = {}
        self.items: list[Planned] = []

    async def add(self, queue: str, position: int, message: ExportedMessage) -> None:
        event = base_queue(queue)
        item = Planned(
            source_id=f"{self.import_id}/{queue}/{position}",
            queue=queue,
            disposition="",
            reason="",
            detail=_preserved(message, queue),
        )
        identities = [_transport_identity(message, event)]
        await self._classify(item, event, message)
        if item.event_key is not None:
            identities.append((event, "key", item.event_key))
        first = next((self.seen[i] for i in identities if i in self.seen), None)
        if first is not None:
            item.disposition, item.duplicate_of = "duplicate", first
            item.reason = f"another copy of {first.source_id}"
            item.keep_id = item.payload = None
        for identity in identities:
            self.seen.setdefault(identity, first or item)
        self.items.append(item)

    async def _classify(self, item: Planned, event: str, message: ExportedMessage) -> None:
        def settle(disposition: str, reason: str) -> None:
            item.disposition, item.reason = disposition, reason

        if event in OBSOLETE_QUEUES:
            return settle("obsolete", "retired tournament cycle queue; kept for reconciliation")
        if event in REGISTRY and event not in LEGACY_EVENTS:
            return settle("unsupported", f"{event!r} is an API entrypoint, never a broker queue")
        if event not in LEGACY_EVENTS:
            return settle("unsupported", f"no entrypoint consumes {event!r}")
        item.event_name = event
        text = body_text(message)
        body = None if text is None else body_object(text)
        if body is None:
            return settle("malformed", "the body is not a JSON object")
        try:
            payload = REGISTRY.decode(event, body)
        except MalformedPayloadError as error:
            return settle("malformed", str(error))
        spec = REGISTRY.get(event)
        problem = await payload_problem(
            self.conn, event, spec.payload_version, msgspec.to_builtins(payload)
        )
        if problem is not None:
            return settle("malformed", f"breaks the payload contract: {problem}")
        item.payload = payload
        derived = await keys.derive(self.conn, event, payload, message.props.message_id)
        if isinstance(derived, keys.NoKey):
            return settle("needs_reconciliation", derived.reason)
        item.event_key, item.entity_key = derived.event_key, derived.entity_key
        await self._judge(item, event, payload, message)

    async def _judge(
        self, item: Planned, event: str, payload: msgspec.Struct, message: ExportedMessage
    ) -> None:
        def settle(disposition: str, reason: str) -> None:
            item.disposition, item.reason = disposition, reason

        assert item.event_key is not None
        conn = self.conn
        existing = await evidence.existing_job(conn, event, item.event_key)
        if existing is not None:
            item.job_id = existing.id
            if existing.status == "succeeded":
                return settle("already_completed", "the job of this event key succeeded")
            return settle("imported", f"resolves to the {existing.status} job of this event key")
        if (missing := await evidence.missing_domain_row(conn, event, payload)) is not None:
            return settle("needs_reconciliation", missing)
        if (done := await evidence.completed_effect(conn, event, payload)) is not None:
            return settle("already_completed", done)
        if (claimed := await evidence.legacy_claim(conn, message.props.message_id)) is not None:
            return settle(
                "needs_reconciliation",
                f"claimed by the legacy consumer at {claimed.isoformat()}, "
                "with no evidence that its effects completed",
            )
        original = find_original_job_id(message)
        named = None if original is None else await evidence.named_job(conn, original)
        if named is not None and named.legacy and named.status in ("processing", "succeeded"):
            return settle(
                "needs_reconciliation",
                f"the legacy job {original} says {named.status}, "
                "with no evidence that its effects completed",
            )
        if original is not None and (named is None or (named.legacy and named.action == event)):
            item.keep_id = original
        elif original is not None:
            item.detail["original_job_id_not_kept"] = f"{original} names another job"
        settle("imported", "still required")


async def classify(
    conn: asyncpg.Connection, loaded: LoadedManifest, import_id: str
) -> list[Planned]:
    """Every message of the manifest, in manifest order, with its disposition (reads only)."""
    plan = _Plan(conn, import_id)
    for queue in loaded.manifest.queues:
        for position, message in enumerate(queue.messages, start=1):
            await plan.add(queue.name, position, message)
    return plan.items
