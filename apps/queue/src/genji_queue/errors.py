"""Typed errors for the SQLSTATEs the queue's SQL functions raise."""

from __future__ import annotations

import asyncpg


class QueueError(Exception):
    """A queue SQL function refused the request."""


class EventKeyConflictError(QueueError):
    """GJ001: the (event name, event key) identity was already used with another payload,
    entity key or parent."""


class UnknownQueueEventError(QueueError):
    """GJ002: the database does not know this event name."""


class InvalidJobRequestError(QueueError):
    """GJ003: an argument was missing, malformed or over its limit."""


class EffectFingerprintMismatchError(QueueError):
    """GJ006: an effect key was reused with a different request fingerprint."""


class EffectNotAllowedError(QueueError):
    """GJ007: the job's event may not request this effect."""


class RecoveryKeyConflictError(QueueError):
    """GJ008: a recovery idempotency key already recorded an action on another job, or another
    kind of action."""


class RecoveryRequiredError(QueueError):
    """GJ009: a raw write tried to move a held queue row or to create a queue row without its
    public identity; the recovery functions and enqueue_job are the only paths."""


class JobNotFoundError(QueueError):
    """GJ404: no job has this UUID."""


class StaleClaimError(QueueError):
    """GJ409: the caller no longer holds the job's active claim."""


class JobStateInconsistentError(QueueError):
    """GJ500: queue metadata is missing or contradictory; an operator must reconcile it."""


class RetryTransactionError(QueueError):
    """40001 / 40P01: the transaction lost a serialization or deadlock race. Nothing it did
    was committed; roll back and run the whole transaction again."""


class NotInTransactionError(QueueError):
    """The caller must supply a connection with an open transaction."""


_BY_SQLSTATE: dict[str, type[QueueError]] = {
    "GJ001": EventKeyConflictError,
    "GJ002": UnknownQueueEventError,
    "GJ003": InvalidJobRequestError,
    "GJ006": EffectFingerprintMismatchError,
    "GJ007": EffectNotAllowedError,
    "GJ008": RecoveryKeyConflictError,
    "GJ009": RecoveryRequiredError,
    "GJ404": JobNotFoundError,
    "GJ409": StaleClaimError,
    "GJ500": JobStateInconsistentError,
    "40001": RetryTransactionError,
    "40P01": RetryTransactionError,
}


# Two recovery actions on different jobs with one idempotency key, at the same time: neither
# saw the other's action, so the later one fails on the key's unique index instead of GJ008.
_ACTION_KEY = "job_actions_idempotency_key_key"


def translate(error: asyncpg.PostgresError) -> Exception:
    """The typed error for one of our SQLSTATEs, or the original database error."""
    kind = _BY_SQLSTATE.get(getattr(error, "sqlstate", "") or "")
    message = str(error)
    if isinstance(error, asyncpg.UniqueViolationError) and error.constraint_name == _ACTION_KEY:
        kind = RecoveryKeyConflictError
        message = f"the idempotency key recorded another action meanwhile: {error.detail}"
    if kind is None:
        return error  # type: ignore[no-any-return]
    translated = kind(message)
    translated.__cause__ = error
    return translated
