"""GET /api/v3/internal/jobs/{job_id}."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from genji_sdk.jobs import JobStatusResponse
from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.errors import BadRequestError
from genji_api.jobs.service import job_status

JobId = Annotated[
    str, Parameter(description="The job's public UUID", schema_extra={"format": "uuid"})
]


class InternalJobsController(Controller):
    path = "/internal"
    tags = ["jobs"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @get("/jobs/{job_id:str}", opt=scopes.required(scopes.JOBS_READ))
    async def get_job(
        self, job_id: JobId, database: NamedDependency[Database]
    ) -> JobStatusResponse:
        """The status of a job by its public UUID."""
        try:
            parsed = UUID(job_id)
        except ValueError:
            raise BadRequestError(f"Invalid job id: {job_id!r}") from None
        return await job_status(database, parsed)
