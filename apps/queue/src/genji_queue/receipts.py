"""sql/receipts.sql: effect_receipt_begin and effect_receipt_complete.

Both run inside the caller's business transaction:

    async with conn.transaction():
        receipt = await effect_receipt_begin(conn, claim, job_id, "xp", fingerprint)
        if receipt.fresh:
            ... perform the mutation ...
            await effect_receipt_complete(conn, job_id, "xp", result)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call

_BEGIN = sql_call(
    "effect_receipt_begin",
    # As text, so the result decodes the same whatever JSON codec the session installed.
    "SELECT fresh, result::text AS result FROM effect_receipt_begin($1, $2, $3, $4, $5, $6)",
)
_COMPLETE = sql_call(
    "effect_receipt_complete", "SELECT effect_receipt_complete($1, $2, $3::jsonb) AS done"
)


@dataclass(frozen=True)
class Receipt:
    fresh: bool
    """True when this transaction owns the effect and must perform it."""
    result: Any
    """The recorded result of an earlier, committed execution of the same effect."""


async def effect_receipt_begin(
    session: Session, claim: ClaimToken, job_id: UUID, effect_key: str, fingerprint: str
) -> Receipt:
    row = await _BEGIN.row(
        session,
        job_id,
        effect_key,
        fingerprint,
        claim.queue_job_id,
        claim.queue_manager_id,
        claim.claimed_at,
    )
    result = json.loads(row["result"]) if row["result"] is not None else None
    return Receipt(fresh=row["fresh"], result=result)


async def effect_receipt_complete(
    session: Session, job_id: UUID, effect_key: str, result: Any
) -> None:
    await _COMPLETE.rows(session, job_id, effect_key, json.dumps(result))
