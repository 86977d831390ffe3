"""Which job an operator means: JOB_ID may be a public UUID, a unique prefix of one or a queue
id. The database answers (job_lookup); an ambiguous prefix lists its candidates."""

from __future__ import annotations

from uuid import UUID

from genji_api.database import Database
from genji_api.jobs import service as jobs
from genji_api.jobs.cli_session import CommandError, Exit

CANDIDATES = 10
"""Candidates an ambiguous reference lists (one more is read to know there are more)."""


async def resolve_job(database: Database, reference: str) -> UUID:
    found = await jobs.find_jobs(database, reference, CANDIDATES + 1)
    if not found:
        raise CommandError(f"Job not found: no job matches {reference!r}.", Exit.NOT_FOUND)
    if len(found) == 1:
        return found[0].job_id
    shown = found[:CANDIDATES]
    more = " and more" if len(found) > CANDIDATES else ""
    lines = "".join(
        f"\n  {c.job_id}  queue id {c.queue_job_id if c.queue_job_id is not None else '-'}  "
        f"{c.event_name}"
        for c in shown
    )
    raise CommandError(
        f"{reference!r} matches {len(shown)}{more} jobs; give more of the UUID:{lines}",
        Exit.AMBIGUOUS,
        extra={"candidates": [str(c.job_id) for c in shown], "more": bool(more)},
    )
