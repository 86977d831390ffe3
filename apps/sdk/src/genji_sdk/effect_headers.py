"""The headers a handler's API client sends with a mutation it performs as one of a job's effects.

The public job UUID, the claim the handler runs under
(`<queue job id>:<queue manager UUID>:<claimed-at ISO timestamp>`), and the effect's key within
the job. Ordinary clients send none of them.
"""

from __future__ import annotations

from uuid import UUID

from genji_sdk.context import ClaimToken

JOB_HEADER = "X-Genji-Job"
CLAIM_HEADER = "X-Genji-Claim"
EFFECT_HEADER = "X-Genji-Effect"


def format_claim(claim: ClaimToken) -> str:
    return f"{claim.queue_job_id}:{claim.queue_manager_id}:{claim.claimed_at.isoformat()}"


def effect_headers(job_id: UUID, claim: ClaimToken, effect_key: str) -> dict[str, str]:
    return {JOB_HEADER: str(job_id), CLAIM_HEADER: format_claim(claim), EFFECT_HEADER: effect_key}
