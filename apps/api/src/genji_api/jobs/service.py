"""Job status as the API reports it, read from the SQL status projection."""

from __future__ import annotations

from uuid import UUID

from genji_queue.errors import JobNotFoundError, JobStateInconsistentError
from genji_queue.status import job_public_status
from genji_sdk.jobs import JobStatusResponse

from genji_api.database import Database
from genji_api.errors import NotFoundError, ReconciliationRequiredError


async def job_status(database: Database, job_id: UUID) -> JobStatusResponse:
    try:
        return await database.read(lambda conn: job_public_status(conn, job_id))
    except JobNotFoundError:
        raise NotFoundError("Job not found.") from None
    except JobStateInconsistentError as error:
        raise ReconciliationRequiredError(
            f"Job {job_id} has inconsistent queue metadata and needs reconciliation "
            "(docs/queue-operations.md).",
            extra={"reason": str(error)},
        ) from None
