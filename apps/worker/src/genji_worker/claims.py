"""Claiming and fenced writes: the persistence adapter PGQueuer's QueueManager runs on.

PGQueuer still selects, claims and schedules work and detects stale heartbeats. This adapter
changes three things about how 1.1.1 talks to the database:

- a claim that would start a second running job of an entrypoint (two workers dequeuing from
  the same snapshot) fails on a unique index and claims nothing;
- every terminal, retry and heartbeat write goes through a fenced SQL function keyed by the
  claim token, so a stale owner changes nothing;
- a 'canceled' result (shutdown, lost connection) returns the job to the queue instead of
  deleting it.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import asyncpg
from genji_sdk import ClaimToken
from pgqueuer.models import Job, TracebackRecord
from pgqueuer.ports.repository import EntrypointExecutionParameter
from pgqueuer.queries import Queries

from genji_worker.errors import error_record

log = logging.getLogger("genji.queue")


def claim_of(job: Job) -> ClaimToken:
    assert job.queue_manager_id is not None
    return ClaimToken(job.id, job.queue_manager_id, job.updated)


@dataclasses.dataclass
class FencedQueries(Queries):
    on_lost: Callable[[ClaimToken], None] = lambda _: None
    """Called for each claim a heartbeat finds taken over by another worker."""
    claims: dict[int, ClaimToken] = dataclasses.field(default_factory=dict)
    """Claims of executions currently running in this process."""
    settled: set[ClaimToken] = dataclasses.field(default_factory=set)
    """Claims whose outcome the executor already wrote; PGQueuer's later log write is skipped."""
    paused_until: float = 0.0
    """While monotonic time is before this, no new work is claimed (dependency outage)."""

    async def dequeue(
        self,
        batch_size: int,
        entrypoints: dict[str, EntrypointExecutionParameter],
        queue_manager_id: uuid.UUID,
        global_concurrency_limit: int | None,
        heartbeat_timeout: timedelta,
    ) -> list[Job]:
        if time.monotonic() < self.paused_until:
            return []
        try:
            jobs: list[Job] = await super().dequeue(
                batch_size,
                entrypoints,
                queue_manager_id,
                global_concurrency_limit,
                heartbeat_timeout,
            )
        except asyncpg.UniqueViolationError:
            # Another worker claimed this entrypoint's one running slot at the same moment.
            return []
        for job in jobs:
            earlier = self.claims.get(job.id)
            if earlier is not None:
                # Our own execution missed its heartbeats and the job was reclaimed (by us):
                # the earlier run must stop, its writes are fenced out already.
                self.on_lost(earlier)
            self.claims[job.id] = claim_of(job)
        return jobs

    async def next_deferred_eta(self, entrypoints: list[str]) -> timedelta | None:
        # While claiming is paused, sleep until the pause ends instead of polling for work
        # that would not be claimed.
        remaining = self.paused_until - time.monotonic()
        if remaining > 0:
            return timedelta(seconds=remaining)
        eta: timedelta | None = await super().next_deferred_eta(entrypoints)
        return eta

    async def call(self, function: str, claim: ClaimToken, *args: Any) -> Any:
        """Call one of the fenced SQL functions with a claim token; returns its value."""
        placeholders = ", ".join(f"${n}" for n in range(1, len(args) + 4))
        rows = await self.driver.fetch(
            f"SELECT {function}({placeholders}) AS result",
            claim.queue_job_id,
            claim.queue_manager_id,
            claim.claimed_at,
            *args,
        )
        return rows[0]["result"]

    def settle(self, claim: ClaimToken) -> None:
        self.settled.add(claim)
        self.forget(claim)

    def forget(self, claim: ClaimToken) -> None:
        if self.claims.get(claim.queue_job_id) == claim:
            del self.claims[claim.queue_job_id]

    async def log_jobs(self, job_status: list[tuple[Job, str, TracebackRecord | None]]) -> None:
        for job, status, traceback in job_status:
            claim = claim_of(job)
            if claim in self.settled:
                self.settled.discard(claim)
                continue
            if status == "successful":
                written = await self.call("queue_complete", claim)
            elif status == "canceled":
                # Interrupted, not failed: back to the queue. Only an audited operator discard
                # is a terminal cancellation.
                written = await self.call("queue_release", claim, "execution interrupted")
            else:
                record = (
                    error_record(traceback.exception_type, traceback.exception_message)
                    if traceback
                    else None
                )
                written = await self.call("queue_hold", claim, json.dumps(record), False)
            self.forget(claim)
            if not written:
                log.warning("job %s: claim was taken over; %s result not written", job.id, status)

    async def retry_job(
        self, job: Job, delay: timedelta, traceback_record: TracebackRecord | None
    ) -> None:
        claim = claim_of(job)
        record = None
        if traceback_record is not None:
            record = error_record(
                traceback_record.exception_type, traceback_record.exception_message
            )
        await self.call("queue_retry", claim, delay, json.dumps(record), False)
        self.forget(claim)

    async def update_heartbeat(self, job_ids: list[int]) -> None:
        claims = [self.claims[i] for i in set(job_ids) if i in self.claims]
        if not claims:
            return
        rows = await self.driver.fetch(
            "SELECT queue_heartbeat($1, $2, $3) AS lost",
            [c.queue_job_id for c in claims],
            [c.queue_manager_id for c in claims],
            [c.claimed_at for c in claims],
        )
        lost = {row["lost"] for row in rows}
        for claim in claims:
            if claim.queue_job_id in lost:
                log.warning(
                    "job %s: heartbeat found the claim taken over; stopping execution",
                    claim.queue_job_id,
                )
                self.on_lost(claim)
