"""The operator recovery contract: requests to retry, discard or resolve a held job, and the
typed outcome every one of them returns (the API, the operator CLI and the bot's alert controls
speak it)."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

import msgspec

from genji_sdk.ids import DiscordId

# The operator who receives failure alerts, and the only one allowed to recover jobs, unless
# configured otherwise (JOB_ALERT_RECIPIENT_ID, QUEUE_OPERATOR_IDS).
DEFAULT_ALERT_RECIPIENT = 141372217677053952

# accepted: the action was recorded now; duplicate: the idempotency key was used before and
# `recorded_outcome` is what it did then; reconciliation_required: a Discord send of the job is
# uncertain and must be resolved first; not_uncertain: resolve-effect on a send that is not
# uncertain; needs_inspection: the job's queue state is missing or inconsistent. Every outcome
# but accepted changed nothing.
RecoveryOutcome = Literal[
    "accepted",
    "duplicate",
    "stale_generation",
    "queued",
    "running",
    "succeeded",
    "discarded",
    "reconciliation_required",
    "not_uncertain",
    "needs_inspection",
]

RecoveryState = Literal[
    "pending", "retrying", "running", "held", "succeeded", "discarded", "needs_inspection"
]
"""A job as recovery sees it. pending: ready or delayed, never failed; retrying: queued after a
handler failure; running: claimed; held: waiting for the operator."""

OperatorSource = Literal["discord", "cli", "api"]

# Generations within their database column (integer), so an out-of-range value is a 400.
Generation = Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)]


class OperatorContext(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Where a recovery request came from. A Discord request names the alert message whose
    button was pressed; the API checks it against the stored alert binding."""

    source: OperatorSource
    guild_id: DiscordId | None = None
    channel_id: DiscordId | None = None
    message_id: DiscordId | None = None
    interaction_id: DiscordId | None = None


class RetryRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    expected_generation: Generation
    idempotency_key: str
    """The Discord interaction id for a button press; any unique string otherwise."""
    actor_id: DiscordId
    """The operator's Discord user id; it must be in QUEUE_OPERATOR_IDS."""
    context: OperatorContext


class DiscardRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    expected_generation: Generation
    idempotency_key: str
    actor_id: DiscordId
    reason: str
    context: OperatorContext


ResolveDecision = Literal["located", "resend"]


class ResolveEffectRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Settles an uncertain send: `located` records the message the operator found (its
    channel and message or thread id), `resend` records the decision to send it again."""

    effect_key: str
    destination: str
    decision: ResolveDecision
    expected_generation: Generation
    idempotency_key: str
    actor_id: DiscordId
    context: OperatorContext
    channel_id: DiscordId | None = None
    message_id: DiscordId | None = None
    thread_id: DiscordId | None = None
    reason: str | None = None


class RecoveryResult(msgspec.Struct, frozen=True, kw_only=True):
    outcome: RecoveryOutcome
    job_id: UUID
    retry_generation: int
    """The job's generation after the call."""
    state: RecoveryState
    """The job's state after the call."""
    action_id: int | None = None
    """The audit row of the action (the recorded one for a duplicate)."""
    recorded_outcome: RecoveryOutcome | None = None
    """For a duplicate: the outcome the first request with this key returned."""
    message: str
    """One sentence for the operator: what happened, or why nothing did."""
