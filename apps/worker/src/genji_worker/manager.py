"""PGQueuer's QueueManager with its buffer of finished executions handed to the fenced adapter.

PGQueuer creates that buffer inside QueueManager.run and passes it only to each execution's
dispatch; the adapter needs it to complete buffered successes before it claims, and as soon as
every execution has finished (FencedQueries, "completions").
"""

from __future__ import annotations

from datetime import timedelta

from pgqueuer import QueueManager
from pgqueuer.core.buffers import HeartbeatBuffer, JobStatusLogBuffer
from pgqueuer.models import Job

from genji_worker.claims import FencedQueries


class FencedQueueManager(QueueManager):
    async def _dispatch(
        self,
        job: Job,
        jbuff: JobStatusLogBuffer,
        hbuff: HeartbeatBuffer,
        heartbeat_timeout: timedelta,
    ) -> None:
        assert isinstance(self.queries, FencedQueries)
        self.queries.completions = jbuff
        await super()._dispatch(job, jbuff, hbuff, heartbeat_timeout)
        await self.queries.complete_when_idle()
