"""The one recovery service the API routes, the operator CLI and the bot's alert controls use.
Each call authorizes the actor, then runs its SQL function in one transaction; a Discord send
located by the operator also writes the domain column its handler would have written."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from uuid import UUID

import asyncpg
from genji_queue.errors import (
    InvalidJobRequestError,
    JobNotFoundError,
    RecoveryKeyConflictError,
)
from genji_queue.recovery_discard import recovery_discard
from genji_queue.recovery_resolve_effect import recovery_resolve_effect
from genji_queue.recovery_retry import recovery_retry
from genji_sdk.recovery import (
    DiscardRequest,
    RecoveryResult,
    ResolveEffectRequest,
    RetryRequest,
)

from genji_api.database import Database
from genji_api.errors import JOB_NOT_FOUND, BadRequestError, ConflictError, NotFoundError
from genji_api.recovery.authorization import require_alert_context, require_operator
from genji_api.settings import ApiSettings

Action = Callable[[asyncpg.Connection], Awaitable[RecoveryResult]]
Request = RetryRequest | DiscardRequest | ResolveEffectRequest


async def _recover(
    database: Database, settings: ApiSettings, job_id: UUID, request: Request, action: Action
) -> RecoveryResult:
    require_operator(settings, request.actor_id)

    async def work(conn: asyncpg.Connection) -> RecoveryResult:
        await require_alert_context(
            conn, settings, job_id, request.context, request.idempotency_key
        )
        return await action(conn)

    try:
        return await database.transaction(work)
    except JobNotFoundError as error:
        # No such job, or for resolve-effect no binding of the job for that send.
        if str(error).startswith(f"job {job_id} not found"):
            raise NotFoundError(JOB_NOT_FOUND) from None
        raise NotFoundError(str(error)) from None
    except RecoveryKeyConflictError as error:
        raise ConflictError(str(error)) from None
    except InvalidJobRequestError as error:
        raise BadRequestError(str(error)) from None


async def retry_job(
    database: Database, settings: ApiSettings, job_id: UUID, request: RetryRequest
) -> RecoveryResult:
    return await _recover(
        database, settings, job_id, request, lambda conn: recovery_retry(conn, job_id, request)
    )


async def discard_job(
    database: Database, settings: ApiSettings, job_id: UUID, request: DiscardRequest
) -> RecoveryResult:
    return await _recover(
        database, settings, job_id, request, lambda conn: recovery_discard(conn, job_id, request)
    )


async def resolve_effect(
    database: Database, settings: ApiSettings, job_id: UUID, request: ResolveEffectRequest
) -> RecoveryResult:
    return await _recover(
        database,
        settings,
        job_id,
        request,
        lambda conn: recovery_resolve_effect(conn, job_id, request),
    )
