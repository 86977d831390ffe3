"""The job context a queue handler's API client sends with a mutation it performs as an effect.

Three headers: the public job UUID, the claim the handler runs under
(`<queue job id>:<queue manager UUID>:<claimed-at ISO timestamp>`), and the effect's key within
the job. Ordinary clients send none of them and keep their plain contracts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from genji_sdk import ClaimToken
from genji_sdk.effect_headers import CLAIM_HEADER, EFFECT_HEADER, JOB_HEADER
from litestar import Request

from genji_api.errors import BadRequestError


@dataclass(frozen=True)
class EffectContext:
    job_id: UUID
    claim: ClaimToken
    effect_key: str


def _parse(job: str, claim: str, effect: str) -> EffectContext:
    queue_job_id, manager, claimed_at = claim.split(":", 2)
    token = ClaimToken(
        queue_job_id=int(queue_job_id),
        queue_manager_id=UUID(manager),
        claimed_at=datetime.fromisoformat(claimed_at),
    )
    if token.claimed_at.tzinfo is None:
        raise ValueError("claimed-at needs a time zone")
    if not effect or len(effect) > 200:
        raise ValueError("effect key must be 1 to 200 characters")
    return EffectContext(job_id=UUID(job), claim=token, effect_key=effect)


def effect_context(request: Request[Any, Any, Any]) -> EffectContext | None:
    """The request's job context, None for an ordinary client, 400 when half or malformed."""
    values = [request.headers.get(name) for name in (JOB_HEADER, CLAIM_HEADER, EFFECT_HEADER)]
    if not any(values):
        return None
    if not all(values):
        raise BadRequestError(
            f"{JOB_HEADER}, {CLAIM_HEADER} and {EFFECT_HEADER} must be sent together."
        )
    try:
        return _parse(*values)  # type: ignore[arg-type]
    except ValueError:
        raise BadRequestError("Malformed job context headers.") from None
