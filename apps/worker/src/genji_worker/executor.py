"""The per-job failure policy PGQueuer runs for each claimed job.

Order of one execution (the start gate, queue_begin, already ran inside queue_claim: reclaim
limit, dependency and entity ordering): payload decoding (malformed or unsupported payloads are
held), the handler under its deadline, then classification of what went wrong:

- ordinary exceptions and timeouts consume the failure budget (queue_fail: retry schedule,
  then hold);
- DependencyUnavailable, RateLimited and ConfigurationFailure defer the job without touching
  the budget, and outages pause claiming;
- EffectUncertain holds the job at once (an external effect may have happened: only an
  operator's reconciliation may let it run again), and so does EffectRefused (the service
  refused for a reason only an operator can fix); OwnershipLost stops the execution without
  a queue write, since a newer owner holds the job;
- cancellation propagates untouched, so PGQueuer records 'canceled' and the adapter returns the
  job to the queue.

Every hold this executor writes is reported to Sentry once (genji_worker.sentry_reports).
Each execution counts one outcome and its handler time (genji_worker.metrics) where the branch
that decides it has written what it decided.

Success is left to PGQueuer's buffered log write, which the adapter turns into queue_complete_many.
If a write of our own cannot reach the database, the row stays claimed and is recovered by the
supervisor or by stale-heartbeat reclaim.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
from genji_queue.errors import QueueError
from genji_queue.hold import queue_hold
from genji_queue.release import queue_release
from genji_queue.retry import queue_fail, queue_retry
from genji_queue.types import ErrorRecord, FailOutcome
from genji_sdk import (
    ClaimToken,
    EventSpec,
    JobContext,
    MalformedEnvelopeError,
    MalformedPayloadError,
    UnsupportedPayloadVersionError,
    decode_envelope,
    decode_envelope_payload,
)
from genji_sdk.failures import (
    ConfigurationFailure,
    DependencyUnavailable,
    EffectRefused,
    EffectUncertain,
    OwnershipLost,
    RateLimited,
)
from pgqueuer.executors import AbstractEntrypointExecutor
from pgqueuer.models import Context, Job

from genji_worker.claims import FencedQueries, claim_of
from genji_worker.driver import QUEUE_CONNECTION_ERRORS
from genji_worker.errors import describe, error_record
from genji_worker.job_names import job_name
from genji_worker.metrics import Outcome, count_outcome, observe_handler
from genji_worker.outages import Outages
from genji_worker.sentry_reports import report_held
from genji_worker.settings import WorkerSettings

log = logging.getLogger("genji.queue")

Handler = Callable[[msgspec.Struct, JobContext], Awaitable[None]]

# The same failures seen by a handler on its own connections: an outage, not a handler bug.
DATABASE_OUTAGES = (
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    ConnectionError,
)

FAILED_OUTCOMES: dict[FailOutcome, Outcome] = {"retry": "retried", "held": "held", "lost": "lost"}


@dataclasses.dataclass
class PolicyExecutor(AbstractEntrypointExecutor):
    spec: EventSpec = dataclasses.field(kw_only=True)
    handler: Handler = dataclasses.field(kw_only=True)
    settings: WorkerSettings = dataclasses.field(kw_only=True)
    queries: FencedQueries = dataclasses.field(kw_only=True)
    outages: Outages = dataclasses.field(kw_only=True)
    running: dict[ClaimToken, asyncio.Task[Any]] = dataclasses.field(kw_only=True)
    """Executions of this process by claim, so shutdown and lost claims can cancel them."""

    async def execute(self, job: Job, context: Context) -> None:
        claim = claim_of(job)
        task = asyncio.current_task()
        assert task is not None
        self.running[claim] = task
        try:
            await self._execute(job, claim)
        except asyncio.CancelledError:
            self._count("canceled")
            raise
        except QUEUE_CONNECTION_ERRORS as error:
            log.warning(
                "%s: queue connection lost (%s); left for recovery",
                job_name(job),
                type(error).__name__,
            )
            # Kept among the claims: the supervisor releases it once it has a new connection.
            self.queries.settled.add(claim)
            self._count("interrupted")
        except (asyncpg.PostgresError, QueueError) as error:
            # One of our own queue writes failed (privileges, a deadlock, a statement timeout):
            # not the handler's fault. Give the job back and pause instead of holding it.
            log.error("%s: queue write failed: %s", job_name(job), error)
            self.outages.report("queue database", None, actionable=True)
            with contextlib.suppress(*QUEUE_CONNECTION_ERRORS, asyncpg.PostgresError, QueueError):
                await queue_release(self.queries.driver, claim, "queue write failed")
            self.queries.settle(claim)
            self._count("released")
        finally:
            self.running.pop(claim, None)

    async def _execute(self, job: Job, claim: ClaimToken) -> None:
        # queue_claim already passed this job through the start gate.
        job_id: UUID | None = None
        try:
            envelope = decode_envelope(job.payload or b"")
            job_id = envelope.job_id
            if envelope.event_name != job.entrypoint:
                raise MalformedEnvelopeError(
                    f"envelope names {envelope.event_name!r} but the job is {job.entrypoint!r}"
                )
            payload = decode_envelope_payload(envelope)
        except (
            MalformedEnvelopeError,
            MalformedPayloadError,
            UnsupportedPayloadVersionError,
        ) as error:
            log.error("%s held: %s", job_name(job, job_id), error)
            await self._hold(job, job_id, claim, error_record("MalformedPayload", str(error)))
            return

        context = JobContext(
            job_id=envelope.job_id,
            event_name=envelope.event_name,
            event_key=envelope.event_key,
            attempt=job.attempts + 1,
            retry_generation=self.queries.generations.get(job.id, 0),
            claim=claim,
            trace=envelope.trace,
        )
        timeout = self.spec.handler_timeout_seconds or self.settings.handler_timeout.total_seconds()
        started = time.perf_counter()
        try:
            try:
                async with asyncio.timeout(timeout):
                    await self.handler(payload, context)
            finally:
                observe_handler(self.spec, time.perf_counter() - started)
        except EffectUncertain as error:
            log.error("%s held: %s", job_name(job, job_id), error)
            await self._hold(job, job_id, claim, error_record("UncertainEffect", str(error)))
        except EffectRefused as error:
            log.error("%s held: %s", job_name(job, job_id), error)
            await self._hold(job, job_id, claim, error_record("RefusedEffect", str(error)))
        except OwnershipLost as error:
            # A newer owner holds the job: write nothing, that owner finishes it.
            log.warning(
                "%s: claim lost during the handler (%s); stopped", job_name(job, job_id), error
            )
            self.queries.settle(claim)
            self._count("lost")
        except RateLimited as error:
            await self._defer(claim, error.retry_after, error)
        except DependencyUnavailable as error:
            await self._defer(
                claim, self.outages.report(error.dependency, error.retry_after), error
            )
        except ConfigurationFailure as error:
            await self._defer(
                claim, self.outages.report("configuration", None, actionable=True), error
            )
        except DATABASE_OUTAGES as error:
            await self._defer(claim, self.outages.report("database", None), error)
        except TimeoutError:
            await self._fail(
                job,
                job_id,
                claim,
                error_record("HandlerTimeout", f"handler exceeded {timeout:.0f}s"),
            )
        except Exception as error:
            await self._fail(job, job_id, claim, describe(error))
        else:
            self.outages.healthy()
            self._count("succeeded")

    def _count(self, outcome: Outcome) -> None:
        count_outcome(self.spec, outcome)

    def _report_held(self, job: Job, job_id: UUID | None, record: ErrorRecord) -> None:
        generation = self.queries.generations.get(job.id, 0)
        report_held(job_id=job_id, event_name=job.entrypoint, generation=generation, error=record)

    async def _fail(
        self, job: Job, job_id: UUID | None, claim: ClaimToken, record: ErrorRecord
    ) -> None:
        outcome = await queue_fail(self.queries.driver, claim, self.settings.retry_delays, record)
        if outcome == "held":
            log.error(
                "%s held after exhausting its retries: %s: %s",
                job_name(job, job_id),
                record["exception_type"],
                record["exception_message"],
            )
            self._report_held(job, job_id, record)
        elif outcome == "retry":
            log.warning(
                "%s failed and will be retried: %s: %s",
                job_name(job, job_id),
                record["exception_type"],
                record["exception_message"],
            )
        self.queries.settle(claim)
        self._count(FAILED_OUTCOMES[outcome])

    async def _defer(self, claim: ClaimToken, seconds: float, error: BaseException) -> None:
        written = await queue_retry(
            self.queries.driver, claim, timedelta(seconds=seconds), describe(error)
        )
        self.queries.settle(claim)
        self._count("deferred" if written else "lost")

    async def _hold(
        self, job: Job, job_id: UUID | None, claim: ClaimToken, record: ErrorRecord
    ) -> None:
        held = await queue_hold(self.queries.driver, claim, record)
        if held:
            self._report_held(job, job_id, record)
        self.queries.settle(claim)
        self._count("held" if held else "lost")
