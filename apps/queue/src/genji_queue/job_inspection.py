"""sql/job_inspection.sql: job_list and job_details."""

from __future__ import annotations

from typing import cast
from uuid import UUID

import msgspec
from genji_sdk.inspection import (
    ActionView,
    BindingView,
    JobDetails,
    JobList,
    JobListItem,
    ReceiptView,
)
from genji_sdk.jobs import JobStatus
from genji_sdk.recovery import RecoveryState

from genji_queue.calls import Session, sql_call

_LIST = sql_call(
    "job_list",
    "SELECT job_id, event_name, state, uncertain, retry_generation, handler_failures, "
    "error_code, error_msg, created_at, held_at FROM job_list($1, $2, $3)",
)
# The arrays come back as JSON text whatever JSON codec the connection has.
_DETAILS = sql_call(
    "job_details",
    "SELECT job_id, event_name, state, status, retry_generation, handler_failures, attempts, "
    "error_code, error_msg, event_key, entity_key, created_at, held_at, retry_enabled, "
    "receipts::text AS receipts, bindings::text AS bindings, actions::text AS actions "
    "FROM job_details($1)",
)


async def job_list(
    session: Session, state: str | None, entrypoint: str | None, limit: int
) -> JobList:
    """Active jobs in `state` (pending, retrying, running, held, uncertain; None for all),
    newest first."""
    rows = await _LIST.rows(session, state, entrypoint, limit)
    return JobList(
        jobs=[
            JobListItem(
                id=row["job_id"],
                event_name=row["event_name"],
                state=cast(RecoveryState, row["state"]),
                uncertain=row["uncertain"],
                retry_generation=row["retry_generation"],
                handler_failures=row["handler_failures"],
                error_code=row["error_code"],
                error_msg=row["error_msg"],
                created_at=row["created_at"],
                held_at=row["held_at"],
            )
            for row in rows
        ]
    )


_RECEIPTS = msgspec.json.Decoder(list[ReceiptView])
_BINDINGS = msgspec.json.Decoder(list[BindingView])
_ACTIONS = msgspec.json.Decoder(list[ActionView])


async def job_details(session: Session, job_id: UUID, failure_budget: int) -> JobDetails:
    """One job's state, budgets, last error and effect progress. `failure_budget` is the
    number of handler failures a generation may have (the worker's retry schedule)."""
    row = await _DETAILS.row(session, job_id)
    return JobDetails(
        id=row["job_id"],
        event_name=row["event_name"],
        state=cast(RecoveryState, row["state"]),
        status=cast(JobStatus | None, row["status"]),
        retry_generation=row["retry_generation"],
        handler_failures=row["handler_failures"],
        failure_budget=failure_budget,
        attempts=row["attempts"],
        error_code=row["error_code"],
        error_msg=row["error_msg"],
        event_key=row["event_key"],
        entity_key=row["entity_key"],
        created_at=row["created_at"],
        held_at=row["held_at"],
        retry_enabled=row["retry_enabled"],
        receipts=_RECEIPTS.decode(row["receipts"]),
        bindings=_BINDINGS.decode(row["bindings"]),
        actions=_ACTIONS.decode(row["actions"]),
    )
