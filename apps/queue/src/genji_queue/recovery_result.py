"""The row every recovery function returns, as the SDK's RecoveryResult with its sentence."""

from __future__ import annotations

from typing import Any, cast

from genji_sdk.recovery import RecoveryOutcome, RecoveryResult, RecoveryState

COLUMNS = "outcome, job_id, retry_generation, state, action_id, recorded_outcome"

_SENTENCES: dict[str, str] = {
    "accepted": "Done: {action} recorded as action {action_id}.",
    "duplicate": "This request was already handled (action {action_id}: {recorded}).",
    "stale_generation": "The job is at generation {generation} now; nothing was changed.",
    "queued": "The job is already queued; nothing was changed.",
    "running": "The job is running now; nothing was changed.",
    "succeeded": "The job has succeeded; nothing was changed.",
    "discarded": "The job was discarded; nothing was changed.",
    "reconciliation_required": (
        "A Discord send of this job is uncertain: settle it first (genji-jobs resolve, or the "
        "resolve-effect route), then retry."
    ),
    "not_uncertain": "That send is not uncertain; nothing was changed.",
    "needs_inspection": (
        "The job's queue state is missing or inconsistent: inspect it "
        "(docs/queue-operations.md); nothing was changed."
    ),
}


def recovery_result(row: Any, action: str) -> RecoveryResult:
    outcome = cast(RecoveryOutcome, row["outcome"])
    message = _SENTENCES[outcome].format(
        action=action,
        action_id=row["action_id"],
        recorded=row["recorded_outcome"],
        generation=row["retry_generation"],
    )
    return RecoveryResult(
        outcome=outcome,
        job_id=row["job_id"],
        retry_generation=row["retry_generation"],
        state=cast(RecoveryState, row["state"]),
        action_id=row["action_id"],
        recorded_outcome=cast(RecoveryOutcome | None, row["recorded_outcome"]),
        message=message,
    )
