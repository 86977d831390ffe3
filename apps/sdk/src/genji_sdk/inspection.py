"""What an operator reads about queued work: the job list and one job's details, with its effect
progress and recovery history."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec

from genji_sdk.jobs import JobStatus
from genji_sdk.recovery import RecoveryState
from genji_sdk.sends import BindingState


class JobListItem(msgspec.Struct, frozen=True, kw_only=True):
    id: UUID
    event_name: str
    state: RecoveryState
    uncertain: bool
    """A Discord send of the job is uncertain and must be resolved before a retry."""
    retry_generation: int
    handler_failures: int
    error_code: str | None
    error_msg: str | None
    created_at: datetime | None
    held_at: datetime | None
    finished_at: datetime | None = None
    """When a succeeded or discarded job finished; None for the others."""


class JobList(msgspec.Struct, frozen=True, kw_only=True):
    jobs: list[JobListItem]


class ReceiptView(msgspec.Struct, frozen=True, kw_only=True):
    effect_key: str
    completed: bool
    created_at: datetime
    completed_at: datetime | None


class BindingView(msgspec.Struct, frozen=True, kw_only=True):
    effect_key: str
    destination: str
    state: BindingState
    channel_id: int | None
    message_id: int | None
    thread_id: int | None
    updated_at: datetime


class ActionView(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    action: str
    actor_id: int
    expected_generation: int | None
    outcome: str
    reason: str | None
    created_at: datetime


class WorkerBudgetView(msgspec.Struct, frozen=True, kw_only=True):
    """Workers of the job's owner that recorded the same retry schedule."""

    failure_budget: int | None
    """Handler failures they retry before holding the job; None: they recorded no schedule."""
    retry_delays: list[float] | None
    """Seconds they wait after each handler failure."""
    workers: int
    live: int
    """How many of them beat within the stale-heartbeat threshold from a connected session."""
    last_beat_at: datetime


class JobDetails(msgspec.Struct, frozen=True, kw_only=True):
    id: UUID
    event_name: str
    state: RecoveryState
    status: JobStatus | None
    """The public status (GET /internal/jobs/{id}); None when the queue metadata is
    inconsistent and that read answers that the job needs reconciliation."""
    retry_generation: int
    handler_failures: int
    failure_budget: int
    """Automatic retries a generation gets after handler failures; the next failure holds it.
    The budget the live workers of the job's owner recorded (the smallest when they disagree;
    see worker_budgets), else the one its workers last recorded, else the default schedule's."""
    attempts: int
    """Transport attempts of the queue row, deferrals included."""
    error_code: str | None
    error_msg: str | None
    """The last error, sanitized and bounded as the queue recorded it."""
    event_key: str | None
    entity_key: str | None
    created_at: datetime | None
    held_at: datetime | None
    retry_enabled: bool
    """Held, with no uncertain send: a retry would be accepted."""
    receipts: list[ReceiptView]
    bindings: list[BindingView]
    actions: list[ActionView]
    worker_budgets: list[WorkerBudgetView] = []
    """What the registered workers of the job's owner apply, live groups first."""
