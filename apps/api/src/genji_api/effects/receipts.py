"""Effect receipts inside the caller's business transaction.

async with conn.transaction():
    receipt = await begin_effect(conn, claim, job_id, "xp", fingerprint)
    if receipt.fresh:
        ... perform the mutation ...
        await complete_effect(conn, job_id, "xp", result)
    return receipt.result or result
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import asyncpg
from genji_sdk import ClaimToken

from genji_api.queue.errors import NotInTransactionError, translate


@dataclass(frozen=True)
class Receipt:
    fresh: bool
    """True when this transaction owns the effect and must perform it."""
    result: Any
    """The recorded result of an earlier, committed execution of the same effect."""


async def begin_effect(
    conn: asyncpg.Connection, claim: ClaimToken, job_id: UUID, effect_key: str, fingerprint: str
) -> Receipt:
    if not conn.is_in_transaction():
        raise NotInTransactionError("effect receipts must share the business transaction")
    try:
        row = await conn.fetchrow(
            "SELECT fresh, result FROM effect_receipt_begin($1, $2, $3, $4, $5)",
            job_id,
            effect_key,
            fingerprint,
            claim.queue_manager_id,
            claim.claimed_at,
        )
    except asyncpg.PostgresError as error:
        raise translate(error) from error
    assert row is not None
    result = json.loads(row["result"]) if row["result"] is not None else None
    return Receipt(fresh=row["fresh"], result=result)


async def complete_effect(
    conn: asyncpg.Connection, job_id: UUID, effect_key: str, result: Any
) -> None:
    try:
        await conn.execute(
            "SELECT effect_receipt_complete($1, $2, $3::jsonb)",
            job_id,
            effect_key,
            json.dumps(result),
        )
    except asyncpg.PostgresError as error:
        raise translate(error) from error
