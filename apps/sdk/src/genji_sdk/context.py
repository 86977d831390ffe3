"""Transport-neutral execution context handed to job handlers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

__all__ = ("ClaimToken", "JobContext")


@dataclass(frozen=True)
class ClaimToken:
    """The queue claim a worker holds on one execution of a job.

    The API fences new effect mutations against this claim so a worker that lost its
    claim cannot start another effect after a replacement picked the job up.
    """

    queue_job_id: int
    queue_manager_id: UUID
    claimed_at: datetime


@dataclass(frozen=True)
class JobContext:
    """What a handler knows about the job it is running.

    Handlers pass `claim` (with `job_id`) to effect-receipt and Discord-binding calls, so
    a replay reuses recorded effects and a stale execution cannot start new ones.
    `retry_generation` increments on each accepted operator retry, and when a job held because
    its parent failed is resumed by the parent's success.
    """

    job_id: UUID
    event_name: str
    event_key: str
    attempt: int
    retry_generation: int
    claim: ClaimToken
    trace: Mapping[str, str] = field(default_factory=dict)
