"""PGQueuer's QueueManager on the fenced adapter.

PGQueuer creates its buffer of finished executions inside QueueManager.run and passes it only
to each execution's dispatch; the adapter needs it to complete buffered successes before it
claims, and as soon as every execution has finished (FencedQueries, "completions"). Before it
waits, the manager takes what the last claim left (FencedQueries.take_outlook) instead of
reading the queue again. When its listener health check fails, it keeps the error, which
PGQueuer raises only once every execution has ended, for the supervisor (health_failure).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from pgqueuer import QueueManager
from pgqueuer.core.buffers import HeartbeatBuffer, JobStatusLogBuffer
from pgqueuer.models import Job
from pgqueuer.types import QueueExecutionMode

from genji_worker.claims import FencedQueries


class FencedQueueManager(QueueManager):
    health_failure: BaseException | None = None
    """Why the listener health check failed; PGQueuer has then stopped claiming."""

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

    async def _maybe_health_shutdown(
        self,
        periodic_health_check_task: asyncio.Task[None],
        mode: QueueExecutionMode,
        shutdown_on_listener_failure: bool,
    ) -> None:
        task = periodic_health_check_task
        if task.done() and not task.cancelled() and task.exception() is not None:
            self.health_failure = task.exception()
        await super()._maybe_health_shutdown(task, mode, shutdown_on_listener_failure)
