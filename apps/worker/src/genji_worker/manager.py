"""PGQueuer's QueueManager on the fenced adapter.

PGQueuer creates its buffer of finished executions inside QueueManager.run and passes it only
to each execution's dispatch; the adapter needs it to complete buffered successes before it
claims, and as soon as every execution has finished (FencedQueries, "completions"). Before it
waits, the manager takes what the last claim left (FencedQueries.take_outlook) instead of
reading the queue again.
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

    async def _effective_dequeue_timeout(self, dequeue_timeout: timedelta) -> timedelta:
        # PGQueuer's rule, on the queued work and next deferred job the last claim read.
        assert isinstance(self.queries, FencedQueries)
        outlook = self.queries.take_outlook()
        if outlook is None:
            return await super()._effective_dequeue_timeout(dequeue_timeout)
        if outlook.next_due is not None and outlook.next_due < dequeue_timeout:
            return max(outlook.next_due, self.min_dequeue_poll_interval)
        if outlook.next_due is None and outlook.queued:
            return self.min_dequeue_poll_interval
        return dequeue_timeout
