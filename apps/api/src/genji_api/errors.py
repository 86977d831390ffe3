"""Errors services raise for the client, each with its HTTP status and legacy wording."""

from __future__ import annotations

from typing import Any

from genji_sdk.api_errors import ErrorCode


class ApiError(Exception):
    """An error the client caused or must act on; its message is shown as the body's `error`
    and `code` (genji_sdk.api_errors) is what clients branch on."""

    status_code = 400
    code: ErrorCode = "bad_request"

    def __init__(self, message: str, extra: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class BadRequestError(ApiError):
    status_code = 400


class UnauthorizedError(ApiError):
    status_code = 401
    code: ErrorCode = "unauthorized"


class ForbiddenError(ApiError):
    status_code = 403
    code: ErrorCode = "forbidden"


class NotFoundError(ApiError):
    status_code = 404
    code: ErrorCode = "not_found"


JOB_NOT_FOUND = "Job not found."
"""The one answer of every route to a job UUID no job has."""


class ConflictError(ApiError):
    status_code = 409
    code: ErrorCode = "conflict"


class ReconciliationRequiredError(ApiError):
    """Durable state contradicts itself; an operator must reconcile it (never guess a result)."""

    status_code = 500
    code: ErrorCode = "reconciliation_required"


class ClaimLostError(ConflictError):
    """The requesting job's claim is no longer active: a newer owner runs the job."""

    code: ErrorCode = "claim_lost"

    def __init__(self) -> None:
        super().__init__("The job's claim is no longer active.")


class EffectMismatchError(ConflictError):
    """The job's effect was recorded with another request."""

    code: ErrorCode = "effect_mismatch"
