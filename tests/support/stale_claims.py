"""A claim lost to a reclaim, for the tests of what its stale owner may still write."""

from uuid import uuid4

import asyncpg
import pytest
from pgqueuer.models import Job

from .queue_helpers import claim_next, enqueue_xp

# A claim is lost to a stale-heartbeat reclaim by another worker, or by the same queue manager
# (same manager id, new claim time): both must fence out the earlier token.
RECLAIMERS = pytest.mark.parametrize(
    "reclaimer", ["other", "same"], ids=["q08-other-manager", "q08-same-manager"]
)


async def stale_and_current(conn: asyncpg.Connection, reclaimer: str = "other") -> tuple[Job, Job]:
    """A job claimed once, then reclaimed after its heartbeat lapsed."""
    await enqueue_xp(conn, "xp:1")
    manager = uuid4()
    stale = await claim_next(conn, manager)
    assert stale is not None
    await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '2 minutes'")
    current = await claim_next(conn, manager if reclaimer == "same" else uuid4())
    assert current is not None and current.id == stale.id
    assert (current.queue_manager_id == stale.queue_manager_id) == (reclaimer == "same")
    assert current.updated != stale.updated
    return stale, current
