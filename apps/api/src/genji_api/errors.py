"""Errors services raise for the client, each with its HTTP status and legacy wording."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error the client caused or must act on; its message is shown as the body's `error`."""

    status_code = 400

    def __init__(self, message: str, extra: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class BadRequestError(ApiError):
    status_code = 400


class UnauthorizedError(ApiError):
    status_code = 401


class ForbiddenError(ApiError):
    status_code = 403


class NotFoundError(ApiError):
    status_code = 404


JOB_NOT_FOUND = "Job not found."
"""The one answer of every route to a job UUID no job has."""


class ConflictError(ApiError):
    status_code = 409


class ReconciliationRequiredError(ApiError):
    """Durable state contradicts itself; an operator must reconcile it (never guess a result)."""

    status_code = 500
