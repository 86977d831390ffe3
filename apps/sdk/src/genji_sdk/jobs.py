"""The public job status contract shared by the API and its clients."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

import msgspec

JobStatus = Literal["queued", "processing", "succeeded", "failed", "timeout"]


class JobStatusResponse(msgspec.Struct, frozen=True, kw_only=True):
    id: UUID
    status: JobStatus
    error_code: str | None = None
    error_msg: str | None = None
