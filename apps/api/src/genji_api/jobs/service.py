"""Job status as the API reports it, read from the SQL status projection, and the operator's
inspection reads (the job list and one job's details)."""

from __future__ import annotations

from uuid import UUID

from genji_queue.errors import InvalidJobRequestError, JobNotFoundError, JobStateInconsistentError
from genji_queue.job_inspection import job_details as read_job_details
from genji_queue.job_inspection import job_list
from genji_queue.status import job_public_status
from genji_sdk.inspection import JobDetails, JobList
from genji_sdk.jobs import JobStatusResponse
from genji_worker.settings import settings_from_env

from genji_api.database import Database
from genji_api.errors import (
    JOB_NOT_FOUND,
    BadRequestError,
    NotFoundError,
    ReconciliationRequiredError,
)


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


async def list_jobs(
    database: Database,
    state: str | None = None,
    entrypoint: str | None = None,
    limit: int = 50,
) -> JobList:
    """Active jobs, newest first: state pending, retrying, running, held or uncertain (held
    with an unresolved send), or every active job when None."""
    try:
        return await database.read(lambda conn: job_list(conn, state, entrypoint, limit))
    except InvalidJobRequestError as error:
        raise BadRequestError(str(error)) from None


def failure_budget() -> int:
    """Handler failures one generation may have before it is held: one per delay of the
    worker's retry schedule (GENJI_QUEUE_RETRY_DELAYS), which API and bot workers share."""
    return len(settings_from_env().retry_delays)


async def job_details(database: Database, job_id: UUID) -> JobDetails:
    budget = failure_budget()
    try:
        return await database.read(lambda conn: read_job_details(conn, job_id, budget))
    except JobNotFoundError:
        raise NotFoundError(JOB_NOT_FOUND) from None
