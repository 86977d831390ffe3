"""A synthetic broker export and the domain rows it refers to, seeded on the owner's connection."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import asyncpg
from genji_api.queue.enqueue import enqueue_job
from genji_sdk.payloads import MapEditCreatedEvent

SECRET = "gjs_legacy-request-key-must-not-be-kept"


@dataclass
class Export:
    path: Path
    expected: dict[str, str]
    """source path (queue/position) -> disposition."""
    legacy_job: UUID
    new_job: UUID
    produced_job: UUID
    messages: int = 0
    queues: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _message(
    body: Any,
    *,
    message_id: str | None = None,
    correlation_id: UUID | None = None,
    headers: dict[str, Any] | None = None,
    base64_body: bool = False,
    redelivered: bool = False,
) -> dict[str, Any]:
    text = body if isinstance(body, str) else json.dumps(body)
    props: dict[str, Any] | list[Any] = {
        k: v
        for k, v in {
            "message_id": message_id,
            "correlation_id": None if correlation_id is None else str(correlation_id),
            "headers": headers or {},
            "delivery_mode": 2,
            "content_type": "application/json",
        }.items()
        if v is not None
    }
    if message_id is None and correlation_id is None and not headers:
        props = []  # the management API's rendering of a message without properties
    return {
        "payload_bytes": len(text.encode()),
        "redelivered": redelivered,
        "exchange": "",
        "routing_key": "",
        "message_count": 0,
        "properties": props,
        "payload": base64.b64encode(text.encode()).decode() if base64_body else text,
        "payload_encoding": "base64" if base64_body else "string",
    }


async def seed(conn: asyncpg.Connection, tmp_path: Path) -> Export:
    user = 10**18 + 27
    await conn.execute(
        "INSERT INTO core.users (id, nickname, global_name) VALUES ($1, 'q', 'q')", user
    )
    map_id = await conn.fetchval(
        "INSERT INTO core.maps (code, map_name, official, playtesting) "
        "VALUES ('IMPRT', 'Hanamura', true, 'Approved') RETURNING id"
    )

    async def completion(verification_id: int | None, time: float) -> int:
        completion_id: int = await conn.fetchval(
            "INSERT INTO core.completions (map_id, user_id, time, screenshot, verification_id) "
            "VALUES ($1, $2, $3, 'https://img.example/run.png', $4) RETURNING id",
            map_id,
            user,
            time,
            verification_id,
        )
        return completion_id

    async def edit(code_map: int) -> int:
        edit_id: int = await conn.fetchval(
            "INSERT INTO maps.edit_requests (map_id, code, proposed_changes, reason, created_by) "
            "VALUES ($1, 'IMPRT', '{}'::jsonb, 'typo', $2) RETURNING id",
            code_map,
            user,
        )
        return edit_id

    async def other_map(code: str) -> int:
        other: int = await conn.fetchval(
            "INSERT INTO core.maps (code, map_name, official, playtesting) "
            "VALUES ($1, 'Hanamura', true, 'Approved') RETURNING id",
            code,
        )
        return other

    pending, reviewed = await completion(None, 120), await completion(555_000_000_000_000_001, 110)
    claimed_edit = await edit(map_id)
    new_edit = await edit(await other_map("IMPRU"))
    produced_edit = await edit(await other_map("IMPRV"))

    legacy_job, new_job = uuid4(), uuid4()
    # The legacy publisher's job row, marked failed when its message was dead-lettered; the
    # legacy consumer's claim on another key.
    await conn.execute(
        "INSERT INTO public.jobs (id, action, status, error_code, error_msg, finished_at) "
        "VALUES ($1, 'api.completion.submission', 'failed', 'BOT_ERROR', 'gateway', now())",
        legacy_job,
    )
    await conn.execute(
        "INSERT INTO public.processed_messages (idempotency_key) VALUES ($1)",
        f"map_edit:created:{claimed_edit}",
    )
    # An event the new producer already enqueued before the import.
    async with conn.transaction():
        produced = await enqueue_job(
            conn,
            event_name="api.map_edit.created",
            payload=MapEditCreatedEvent(edit_request_id=produced_edit),
            event_key=f"map_edit:created:{produced_edit}",
            entity_key=f"map-edit:{produced_edit}",
        )

    submission_key = f"completion:submission:{user}:{pending}"
    queues: dict[str, list[dict[str, Any]]] = {
        "api.completion.submission": [
            _message(
                {"completion_id": pending},
                message_id=submission_key,
                correlation_id=legacy_job,
                headers={"X-API-KEY": SECRET},
            ),
            _message(
                {"completion_id": pending},
                message_id=submission_key,
                correlation_id=legacy_job,
                redelivered=True,
            ),
            _message(
                {"completion_id": reviewed}, message_id=f"completion:submission:{user}:{reviewed}"
            ),
            _message("{not json", message_id="completion:submission:broken"),
            _message({"completion_id": "abc"}, base64_body=True),
            _message({"completion_id": 987654}, message_id=f"completion:submission:{user}:987654"),
        ],
        "api.completion.submission.dlq": [
            _message(
                {"completion_id": pending},
                message_id=submission_key,
                correlation_id=legacy_job,
                headers={"dlq_notified": True},
            ),
        ],
        "api.map_edit.created": [
            _message(
                {"edit_request_id": new_edit},
                message_id=f"map_edit:created:{new_edit}",
                correlation_id=new_job,
            ),
            _message(
                {"edit_request_id": produced_edit},
                message_id=f"map_edit:created:{produced_edit}",
                correlation_id=uuid4(),
            ),
        ],
        "api.map_edit.created.dlq": [
            _message(
                {"edit_request_id": claimed_edit},
                message_id=f"map_edit:created:{claimed_edit}",
                correlation_id=uuid4(),
            ),
        ],
        "api.xp.grant": [
            # The legacy shape: no persisted grant id.
            _message(
                {
                    "user_id": user,
                    "amount": 5,
                    "type": "Completion",
                    "previous_amount": 0,
                    "new_amount": 5,
                },
                message_id=str(uuid4()),
            ),
        ],
        "api.playtest.vote.cast": [
            _message(
                {"voter_id": user, "difficulty_value": 5.0, "thread_id": 10**18 + 5},
                message_id=str(uuid4()),
            ),
        ],
        "api.tournament.cycle_started": [_message({"cycle_id": 1, "category_id": 1})],
        "api.tournament.cycle_completed.dlq": [_message({"cycle_id": 1, "standings": []})],
        "api.skill.recompute.requested": [_message({"user_id": user})],
    }
    expected = {
        "api.completion.submission/1": "imported",
        "api.completion.submission/2": "duplicate",
        "api.completion.submission/3": "already_completed",
        "api.completion.submission/4": "malformed",
        "api.completion.submission/5": "malformed",
        "api.completion.submission/6": "needs_reconciliation",
        "api.completion.submission.dlq/1": "duplicate",
        "api.map_edit.created/1": "imported",
        "api.map_edit.created/2": "imported",
        "api.map_edit.created.dlq/1": "needs_reconciliation",
        "api.xp.grant/1": "malformed",
        "api.playtest.vote.cast/1": "needs_reconciliation",
        "api.tournament.cycle_started/1": "obsolete",
        "api.tournament.cycle_completed.dlq/1": "obsolete",
        "api.skill.recompute.requested/1": "unsupported",
    }
    manifest = {
        "exported_at": "2026-12-01T09:00:00Z",
        "queues": [{"name": name, "vhost": "/", "messages": msgs} for name, msgs in queues.items()],
    }
    path = tmp_path / "broker-export.json"
    path.write_text(json.dumps(manifest, indent=1))
    return Export(
        path=path,
        expected=expected,
        legacy_job=legacy_job,
        new_job=new_job,
        produced_job=produced.id,
        messages=sum(len(m) for m in queues.values()),
        queues=queues,
    )


async def snapshot(conn: asyncpg.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the import may write, to compare two runs."""
    queries = {
        "jobs": "SELECT id, action, status::text, event_key, queue_job_id, event_seq "
        "FROM public.jobs ORDER BY id",
        "pgqueuer": "SELECT id, entrypoint, status::text, payload FROM pgqueuer ORDER BY id",
        "log": "SELECT count(*) FROM pgqueuer_log",
        "dispositions": "SELECT source_id, source_queue, disposition, job_id, event_name, "
        "event_key, detail, recorded_at FROM queue_import_dispositions ORDER BY source_id",
        "imports": "SELECT * FROM queue_imports ORDER BY import_id",
    }
    return {name: [tuple(r) for r in await conn.fetch(sql)] for name, sql in queries.items()}
