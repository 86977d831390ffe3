"""Claiming and fenced writes: the persistence adapter PGQueuer's QueueManager runs on.

PGQueuer still schedules work, runs executions, buffers their results and heartbeats. This
adapter changes how 1.1.1 talks to the database:

- claims go through queue_claim, which writes the claim log itself, starts at most one
  running job per entrypoint across all workers, judges stale heartbeats by the database's
  threshold, and passes each job through the start gate (queue_begin) in the same transaction,
  returning only the jobs that may run now;
- every terminal, retry and heartbeat write goes through a fenced SQL function keyed by the
  claim token, so a stale owner changes nothing; the successes of one buffered flush are
  completed together (queue_complete_many), each by its own token, and committed
  asynchronously: their claims are kept (unflushed) until a later synchronous commit has
  returned, so a worker that outlives a database crash can complete them again;
- a claim takes up to the configured batch of jobs, one per event, and first writes the
  results PGQueuer still buffers, so a finished job's event is free for the claim; buffered
  results are also written as soon as every execution of the process has finished;
- a claim also says what it left (queue_claim's outlook). When no other claim could take
  anything, PGQueuer's next claim right after one that took jobs is not sent, and its two reads
  before waiting (queued work, the next deferred job) come from the claim: both hold only
  until a notification arrives (a job inserted or deleted, a wake; not the one a claim's own
  completion sends), this adapter writes a result or claiming is paused, and each is used once;
- finished executions written outside a dequeue are completed together with the next claim,
  in one round trip (queue_complete_and_claim), one such call at a time; the jobs it takes wait
  for PGQueuer's next dequeue, which the completion's own notification wakes, and go back to
  the queue if claiming pauses or the worker stops first;
- a 'canceled' result (shutdown, lost connection) returns the job to the queue instead of
  deleting it.
"""

from __future__ import annotations

import dataclasses
import logging
import time
import uuid
from collections.abc import Callable
from datetime import timedelta

from genji_queue.claim import Claim, Outlook, queue_claim, queue_complete_and_claim
from genji_queue.complete import queue_complete_many
from genji_queue.heartbeat import queue_heartbeat
from genji_queue.hold import queue_hold
from genji_queue.release import queue_release
from genji_queue.retry import queue_retry
from genji_sdk import ClaimToken
from pgqueuer.core.buffers import JobStatusLogBuffer
from pgqueuer.models import Job, TracebackRecord
from pgqueuer.ports.repository import EntrypointExecutionParameter
from pgqueuer.queries import Queries

from genji_worker.driver import DeadlineDriver
from genji_worker.errors import error_record
from genji_worker.faults import fault_point
from genji_worker.job_names import job_name

log = logging.getLogger("genji.queue")


def claim_of(job: Job) -> ClaimToken:
    assert job.queue_manager_id is not None
    return ClaimToken(job.id, job.queue_manager_id, job.updated)


@dataclasses.dataclass(frozen=True)
class ClaimRequest:
    manager: uuid.UUID
    entrypoints: list[str]
    batch: int
    worker_limit: int | None


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
    gate_wait: timedelta = timedelta(seconds=2)
    """First re-check delay of a job the start gate defers (WorkerSettings.dependency_wait)."""
    generations: dict[int, int] = dataclasses.field(default_factory=dict)
    """Retry generation of each claimed job, as the start gate read it."""
    unflushed: set[ClaimToken] = dataclasses.field(default_factory=set)
    """Claims completed asynchronously and not yet known to be on disk. WAL is flushed in
    order, so a synchronous commit issued after a completion returned makes it durable; the
    supervisor shares this set across connections and completes these again after a reconnect."""
    claim_batch: int = 1
    """Jobs one claim may take (WorkerSettings.batch_size). PGQueuer cuts its batch to the
    smallest per-entrypoint limit, 1 here, but queue_claim takes at most one job per event and
    the database allows one running job per event across all workers, so a claim of several
    jobs takes them from as many events and starts nothing the limit forbids."""
    outlook: Outlook | None = None
    """What the last claim left when no other claim could take anything (see take_outlook)."""
    outlook_notifications: int | None = None
    """The connection's notification count when that claim was sent."""
    skip_claim: bool = False
    """The last claim took jobs and left nothing: the next dequeue need not ask again."""
    claim_with: ClaimRequest | None = None
    """What PGQueuer's last dequeue asked for; a completion written outside a dequeue claims the
    same in its round trip (queue_complete_and_claim)."""
    prefetched: list[Job] = dataclasses.field(default_factory=list)
    """Jobs claimed with a completion, for PGQueuer's next dequeue."""
    prefetching: bool = False
    """A claim with a completion is under way."""
    claiming: bool = False
    """A dequeue is writing the buffered results before its own claim."""
    stopping: bool = False
    """Shutdown began: completions claim nothing more (the supervisor sets it)."""
    completions: JobStatusLogBuffer | None = None
    """PGQueuer's buffer of finished executions (FencedQueueManager hands it over). A buffered
    success keeps its job claimed, and with it the job's event, which no worker may start again
    until the completion is written: claims write what it holds first."""

    async def dequeue(
        self,
        batch_size: int,
        entrypoints: dict[str, EntrypointExecutionParameter],
        queue_manager_id: uuid.UUID,
        global_concurrency_limit: int | None,
        heartbeat_timeout: timedelta,
    ) -> list[Job]:
        # The stale threshold is the database's (queue_settings), whatever PGQueuer passes.
        if time.monotonic() < self.paused_until:
            # Not started into an outage, nor left unbeaten until it ends.
            await self.return_prefetched("claiming paused")
            return []
        if self.prefetched:
            # Claimed with a completion since; the completion's notification woke PGQueuer.
            jobs, self.prefetched = self.prefetched, []
            return jobs
        self.claim_with = ClaimRequest(
            queue_manager_id,
            list(entrypoints),
            max(batch_size, self.claim_batch),
            global_concurrency_limit,
        )
        # The events of buffered successes are still running as far as the database knows.
        self.claiming = True
        try:
            await self.complete_buffered()
        finally:
            self.claiming = False
        if self.skip_claim and self.fresh_outlook() is not None:
            self.skip_claim = False
            return []
        point = self.flush_point()
        notifications = self._notifications()
        claim = await queue_claim(
            self.driver,
            queue_manager_id,
            self.claim_with.entrypoints,
            self.claim_with.batch,
            global_concurrency_limit,
            self.gate_wait,
        )
        if claim.jobs:
            # It wrote the claims and committed synchronously, after every completion so far.
            self.flushed(point)
        return self._took(claim, notifications)

    def _took(self, claim: Claim, notifications: int | None) -> list[Job]:
        """Hold the claimed jobs, and what the claim left as of `notifications`."""
        self.outlook = claim.outlook if notifications is not None else None
        self.outlook_notifications = notifications
        self.skip_claim = bool(claim.jobs)
        jobs = []
        for each in claim.jobs:
            job = Job.model_validate(each.row)
            earlier = self.claims.get(job.id)
            if earlier is not None:
                # Our own execution missed its heartbeats and the job was reclaimed (by us):
                # the earlier run must stop, its writes are fenced out already.
                self.on_lost(earlier)
            self.claims[job.id] = claim_of(job)
            self.generations[job.id] = each.retry_generation
            jobs.append(job)
        return jobs

    def _notifications(self) -> int | None:
        return self.driver.notifications if isinstance(self.driver, DeadlineDriver) else None

    def fresh_outlook(self) -> Outlook | None:
        """The last claim's outlook, if nothing it read may have changed since: no notification
        arrived but the one its own completion sent, this adapter wrote no result, and claiming
        is not paused."""
        if (
            self.outlook is None
            or self._notifications() != self.outlook_notifications
            or time.monotonic() < self.paused_until
        ):
            return None
        return self.outlook

    def take_outlook(self) -> Outlook | None:
        """The last claim's outlook if it still holds, for the one wait after that claim."""
        outlook = self.fresh_outlook()
        self.outlook = None
        self.skip_claim = False
        return outlook

    async def complete_buffered(self) -> None:
        """Write the finished executions PGQueuer still buffers (log_jobs, as its own flush)."""
        if self.completions is not None and not self.completions.events.empty():
            await self.completions.flush()

    async def complete_when_idle(self) -> None:
        """Write the buffered results once they are as many as the claims this process holds,
        that is when every execution it started has finished: no other result would join the
        write, and each buffered success holds its event until it is written."""
        buffered = 0 if self.completions is None else self.completions.events.qsize()
        if buffered and buffered >= len(self.claims):
            await self.complete_buffered()

    async def next_deferred_eta(self, entrypoints: list[str]) -> timedelta | None:
        # While claiming is paused, sleep until the pause ends instead of polling for work
        # that would not be claimed.
        remaining = self.paused_until - time.monotonic()
        if remaining > 0:
            return timedelta(seconds=remaining)
        eta: timedelta | None = await super().next_deferred_eta(entrypoints)
        return eta

    def flush_point(self) -> frozenset[ClaimToken]:
        """The completions that a synchronous commit issued from now on carries to disk."""
        return frozenset(self.unflushed)

    def flushed(self, point: frozenset[ClaimToken]) -> None:
        """A synchronous commit issued after `point` was taken has returned."""
        self.unflushed.difference_update(point)

    def settle(self, claim: ClaimToken) -> None:
        self.settled.add(claim)
        self.forget(claim)

    def forget(self, claim: ClaimToken) -> None:
        # Its job was written (finished, held, returned to the queue) or left to a newer owner:
        # its event may be free, and the notification the write sent may be read only after
        # the next dequeue has begun.
        self.outlook = None
        if self.claims.get(claim.queue_job_id) == claim:
            del self.claims[claim.queue_job_id]
            self.generations.pop(claim.queue_job_id, None)

    async def log_jobs(self, job_status: list[tuple[Job, str, TracebackRecord | None]]) -> None:
        pending: list[tuple[Job, ClaimToken, str, TracebackRecord | None]] = []
        skipped: set[ClaimToken] = set()
        for job, status, traceback in job_status:
            claim = claim_of(job)
            if claim in self.settled:
                skipped.add(claim)
                continue
            pending.append((job, claim, status, traceback))
        # PGQueuer flushes buffered results together: their completions are one statement and
        # one commit (queue_complete_many), each fenced by its own claim token.
        succeeded = [(job, claim) for job, claim, status, _ in pending if status == "successful"]
        if succeeded:
            fault_point("before-complete")
            written, taken = await self._complete([claim for _, claim in succeeded])
            fault_point("after-complete")
            for job, claim in succeeded:
                self.forget(claim)
                if claim not in written:
                    self._not_written(job, "successful")
            if taken is not None:
                # Claimed after these completions: what it left is newer than their forgetting.
                self.prefetched.extend(self._took(*taken))
        for job, claim, status, traceback in pending:
            if status != "successful":
                await self._log_unsuccessful(job, claim, status, traceback)
        # Only now: a failed flush comes back with these results, which must be skipped again.
        self.settled.difference_update(skipped)

    def take_buffered_successes(self) -> set[ClaimToken]:
        """Empty PGQueuer's buffer of results once its manager has ended, and return the claims
        of the successes in it: handlers that finished whose completion was never written."""
        found: set[ClaimToken] = set()
        while self.completions is not None and not self.completions.events.empty():
            job, status, _ = self.completions.events.get_nowait()
            claim = claim_of(job)
            if status == "successful" and claim not in self.settled:
                found.add(claim)
        return found

    async def _complete(
        self, claims: list[ClaimToken]
    ) -> tuple[set[ClaimToken], tuple[Claim, int | None] | None]:
        """Complete `claims`; outside a dequeue, also claim in the same round trip
        (queue_complete_and_claim), for PGQueuer's next dequeue. Returns the completions
        written, and that claim with the notification count its outlook holds at."""
        request = self.claim_with
        if (
            request is None
            or self.claiming
            or self.stopping
            or self.prefetching
            or self.prefetched
            or time.monotonic() < self.paused_until
        ):
            written = await queue_complete_many(self.driver, claims)
            self.unflushed.update(written)
            return written, None
        point = self.flush_point()
        notifications = self._notifications()
        # PGQueuer's flushes run side by side (its buffer's lock covers only taking the items):
        # one claim with a completion at a time, so each of its jobs reaches `prefetched` once.
        self.prefetching = True
        try:
            written, claim = await queue_complete_and_claim(
                self.driver,
                claims,
                request.manager,
                request.entrypoints,
                request.batch,
                request.worker_limit,
                self.gate_wait,
            )
        finally:
            self.prefetching = False
        if claim.jobs:
            # Committed synchronously, as a claim: these completions are on disk too.
            self.flushed(point)
        else:
            self.unflushed.update(written)
        # The completion notifies this session once (the queue's trigger on its delete): the
        # notification that wakes PGQueuer to take these jobs. The outlook holds past that one.
        return written, (claim, None if notifications is None else notifications + 1)

    async def return_prefetched(self, reason: str) -> None:
        """Give back the jobs claimed with a completion that PGQueuer has not taken."""
        while self.prefetched:
            claim = claim_of(self.prefetched[-1])
            await queue_release(self.driver, claim, reason)
            self.forget(claim)
            self.prefetched.pop()

    async def _log_unsuccessful(
        self, job: Job, claim: ClaimToken, status: str, traceback: TracebackRecord | None
    ) -> None:
        if status == "canceled":
            # Interrupted, not failed: back to the queue. Only an audited operator discard
            # is a terminal cancellation.
            written = await queue_release(self.driver, claim, "execution interrupted")
        else:
            record = (
                error_record(traceback.exception_type, traceback.exception_message)
                if traceback
                else None
            )
            written = await queue_hold(self.driver, claim, record)
            if written:
                said = record or {"exception_type": "?", "exception_message": "no error"}
                log.error(
                    "%s held: %s: %s",
                    job_name(job),
                    said["exception_type"],
                    said["exception_message"],
                )
        self.forget(claim)
        if not written:
            self._not_written(job, status)

    @staticmethod
    def _not_written(job: Job, status: str) -> None:
        log.warning("%s: claim was taken over; %s result not written", job_name(job), status)

    async def retry_job(
        self, job: Job, delay: timedelta, traceback_record: TracebackRecord | None
    ) -> None:
        claim = claim_of(job)
        record = None
        if traceback_record is not None:
            record = error_record(
                traceback_record.exception_type, traceback_record.exception_message
            )
        await queue_retry(self.driver, claim, delay, record)
        self.forget(claim)

    async def update_heartbeat(self, job_ids: list[int]) -> None:
        claims = [self.claims[i] for i in set(job_ids) if i in self.claims]
        lost = await queue_heartbeat(self.driver, claims)
        for claim in claims:
            if claim.queue_job_id in lost:
                log.warning(
                    "job %s: heartbeat found the claim taken over; stopping execution",
                    claim.queue_job_id,
                )
                self.on_lost(claim)
