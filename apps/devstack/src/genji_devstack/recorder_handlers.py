"""Recorder-backed handlers for every entrypoint a process owns.

They stand in for the Discord and OCR handlers in lifecycle tests and in local runs without a
bot token, and run through exactly the production supervisor, adapter and SQL. Each execution
passes three recorded fault points around one receipt-guarded database mutation:
'before' -> tally (once per job, when a tally database is configured) -> 'announce' -> 'after'.
"""

from __future__ import annotations

import asyncpg
import msgspec
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_sdk import REGISTRY, EventRegistry, JobContext, Owner
from genji_worker.executor import Handler

from genji_devstack.recorder import EffectRecorder


async def tally_once(dsn: str, context: JobContext) -> None:
    """The API-side mutation a handler would request: guarded by an effect receipt."""
    conn = await asyncpg.connect(dsn)
    try:
        async with conn.transaction():
            receipt = await effect_receipt_begin(
                conn, context.claim, context.job_id, "tally", "tally:+1"
            )
            if receipt.fresh:
                await conn.execute(
                    "INSERT INTO effect_tally (job_id, applied) VALUES ($1, 1) "
                    "ON CONFLICT (job_id) DO UPDATE SET applied = effect_tally.applied + 1",
                    context.job_id,
                )
                await effect_receipt_complete(conn, context.job_id, "tally", {})
    finally:
        await conn.close()


def recorder_handlers(
    owner: Owner,
    recorder: EffectRecorder,
    tally_dsn: str | None = None,
    registry: EventRegistry = REGISTRY,
) -> dict[str, Handler]:
    async def handle(payload: msgspec.Struct, context: JobContext) -> None:
        await recorder.perform(context, "before")
        if tally_dsn:
            await tally_once(tally_dsn, context)
        await recorder.perform(context, "announce")
        await recorder.perform(context, "after")

    return {spec.name: handle for spec in registry.owned_by(owner)}
