"""Job status as the API reports it, read from the SQL status projection, and the operator's
inspection reads (the job list and one job's details)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import asyncpg
import msgspec
from genji_queue.errors import InvalidJobRequestError, JobNotFoundError, JobStateInconsistentError
from genji_queue.job_inspection import job_details as read_job_details
from genji_queue.job_inspection import job_list
from genji_queue.job_lookup import JobCandidate, job_list_finished, job_lookup
from genji_queue.status import job_public_status
from genji_queue.worker_retry_schedule import queue_worker_budgets
from genji_sdk import REGISTRY, UnknownEventError
from genji_sdk.inspection import JobDetails, JobList, WorkerBudgetView
from genji_sdk.jobs import JobStatusResponse
from genji_worker.settings import WorkerSettings

from genji_api.database import Database
from genji_api.errors import (
    JOB_NOT_FOUND,
    BadRequestError,
    NotFoundError,
    ReconciliationRequiredError,
)

_NEVER = datetime.min.replace(tzinfo=UTC)


async def job_status(database: Database, job_id: UUID) -> JobStatusResponse:
    try:
        return await database.read(lambda conn: job_public_status(conn, job_id))
    except JobNotFoundError:
        raise NotFoundError(JOB_NOT_FOUND) from None
    except JobStateInconsistentError as error:
        raise ReconciliationRequiredError(
            f"Job {job_id} has inconsistent queue metadata and needs reconciliation "
            "(docs/queue-operations.md).",
            extra={"reason": str(error)},
        ) from None


ACTIVE_STATES = ("pending", "retrying", "running", "held", "uncertain")
FINISHED_STATES = ("succeeded", "discarded")
LIST_STATES = (*ACTIVE_STATES, *FINISHED_STATES, "all")
"""What `list_jobs` accepts; None lists the active jobs, "all" active and finished ones."""


async def list_jobs(
    database: Database,
    state: str | None = None,
    entrypoint: str | None = None,
    limit: int = 50,
) -> JobList:
    """Jobs in `state`, at most `limit` (1 to 500): the active ones newest first (pending,
    retrying, running, held, or uncertain: held with an unresolved send; all four when None),
    the finished ones (succeeded, discarded) most recently finished first, or with "all" both,
    newest first."""

    async def read(conn: asyncpg.Connection) -> JobList:
        if state in FINISHED_STATES:
            return await job_list_finished(conn, state, entrypoint, limit)
        if state != "all":
            return await job_list(conn, state, entrypoint, limit)
        active = await job_list(conn, None, entrypoint, limit)
        finished = await job_list_finished(conn, None, entrypoint, limit)
        merged = sorted(
            [*active.jobs, *finished.jobs],
            key=lambda job: (job.created_at or _NEVER, job.id),
            reverse=True,
        )
        return JobList(jobs=merged[:limit])

    try:
        return await database.read(read)
    except InvalidJobRequestError as error:
        raise BadRequestError(str(error)) from None


async def find_jobs(database: Database, reference: str, limit: int) -> list[JobCandidate]:
    """The jobs `reference` may mean: a public UUID, a prefix of it (8 hex digits or more) or a
    queue id; at most `limit`."""
    try:
        return await database.read(lambda conn: job_lookup(conn, reference, limit))
    except InvalidJobRequestError as error:
        raise BadRequestError(str(error)) from None


DEFAULT_BUDGET = len(WorkerSettings().retry_delays)


def _agreed_budget(budgets: list[WorkerBudgetView]) -> int:
    """The live workers' budget (the smallest when they disagree), else the one last recorded,
    else the default schedule's. Never the caller's environment: it need not be a worker's."""
    live = [b.failure_budget for b in budgets if b.live and b.failure_budget is not None]
    if live:
        return min(live)
    recorded = [b for b in budgets if b.failure_budget is not None]
    if recorded:
        newest = max(recorded, key=lambda b: b.last_beat_at)
        assert newest.failure_budget is not None
        return newest.failure_budget
    return DEFAULT_BUDGET


async def job_details(database: Database, job_id: UUID) -> JobDetails:
    """One job, with the failure budgets its owner's registered workers recorded."""

    async def read(conn: asyncpg.Connection) -> JobDetails:
        details = await read_job_details(conn, job_id, DEFAULT_BUDGET)
        try:
            owner = REGISTRY.get(details.event_name).owner
        except UnknownEventError:
            return details
        budgets = await queue_worker_budgets(conn, owner)
        return msgspec.structs.replace(
            details, failure_budget=_agreed_budget(budgets), worker_budgets=budgets
        )

    try:
        return await database.read(read)
    except JobNotFoundError:
        raise NotFoundError(JOB_NOT_FOUND) from None
