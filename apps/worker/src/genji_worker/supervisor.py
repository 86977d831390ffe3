"""The queue supervisor used by both the bot and the API process.

It registers the entrypoints its process owns, runs PGQueuer's QueueManager on the fenced
adapter, and keeps it alive: a lost or timed-out connection cancels the executions that
depended on it, returns their claims once a new connection is up, and reconnects with capped,
jittered backoff. Shutdown goes in order: stop claiming, drain with heartbeats for a bounded
time, cancel what remains (recoverably), then close the queue connection. A connection whose
listener fails PGQueuer's health check still answers: it is shut down in the same order, and
then replaced. Any error raised while the connection is closed or was terminated is a lost
connection, whatever its type (DeadlineDriver.is_loss); anything else that kills the manager is
raised, so the process exits instead of looking healthy while idle.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import uuid
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

import asyncpg
from genji_queue.complete import queue_complete_many
from genji_queue.release import queue_release
from genji_queue.worker_retry_schedule import queue_worker_retry_schedule
from genji_queue.workers import QueueConfig, queue_config, queue_worker_beat, queue_worker_stopped
from genji_sdk import REGISTRY, ClaimToken, EventRegistry, Owner
from pgqueuer import QueueManager
from pgqueuer.executors import EntrypointExecutorParameters
from pgqueuer.models import Context, Job

from genji_worker import metrics, pgqueuer_logs
from genji_worker.claims import FencedQueries
from genji_worker.driver import QUEUE_CONNECTION_ERRORS, DeadlineDriver
from genji_worker.executor import Handler, PolicyExecutor
from genji_worker.manager import FencedQueueManager
from genji_worker.outages import Outages
from genji_worker.settings import WorkerSettings

log = logging.getLogger("genji.queue")

Connect = Callable[[], Awaitable[asyncpg.Connection]]

# Every host of the DSN answered and none accepts writes (target_session_attrs=read-write while
# a switchover is under way, or only standbys listed): wait for a promotion like for an outage.
NO_WRITABLE_HOST = (asyncpg.TargetServerAttributeNotMatched,)

# Removing the liveness row and closing the connection after the drain.
STOP_CLEANUP_SECONDS = 2.0


async def _close(conn: asyncpg.Connection) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(conn.close(), STOP_CLEANUP_SECONDS)
    conn.terminate()


async def _run_by_policy_executor(job: Job, context: Context) -> None:
    """Placeholder PGQueuer requires; PolicyExecutor calls the registered handler itself."""
    raise AssertionError("entrypoints run through PolicyExecutor")


class QueueSupervisor:
    def __init__(
        self,
        *,
        owner: Owner,
        handlers: Mapping[str, Handler],
        connect: Connect,
        settings: WorkerSettings | None = None,
        registry: EventRegistry = REGISTRY,
    ) -> None:
        registry.verify_handlers(owner, handlers.keys())
        metrics.declare(registry.get(name) for name in handlers)
        self.owner = owner
        self.handlers = dict(handlers)
        self.registry = registry
        self.connect = connect
        self.settings = settings or WorkerSettings()
        self.outages = Outages(self.settings)
        self.running: dict[ClaimToken, asyncio.Task[Any]] = {}
        self._stop = asyncio.Event()
        self._orphaned: list[ClaimToken] = []
        self._unflushed: set[ClaimToken] = set()
        """Completions not yet known durable, kept across connections (FencedQueries)."""
        self._backend: tuple[int, datetime] | None = None
        """Server pid and start of the current queue connection's session."""
        self.manager_id: uuid.UUID | None = None
        """The current queue manager, or the last one whose liveness row may remain; None once
        it is stopped."""

    def request_stop(self) -> None:
        """Begin graceful shutdown; run() returns once it is complete."""
        self._stop.set()

    async def run(self) -> None:
        pgqueuer_logs.install(asyncio.get_running_loop())
        backoff = self.settings.reconnect_initial.total_seconds()
        down_since_logged = False
        while not self._stop.is_set():
            try:
                conn = await asyncio.wait_for(
                    self.connect(), self.settings.command_timeout.total_seconds()
                )
            except (*QUEUE_CONNECTION_ERRORS, *NO_WRITABLE_HOST, TimeoutError) as error:
                if not down_since_logged:
                    log.warning(
                        "queue database unreachable (%s); reconnecting with backoff",
                        type(error).__name__,
                    )
                    down_since_logged = True
                self.outages.unreachable("queue database")
                await self._sleep(backoff * random.uniform(0.8, 1.2))
                backoff = min(backoff * 2, self.settings.reconnect_max.total_seconds())
                continue
            if down_since_logged:
                log.info("queue database reachable again")
                down_since_logged = False
            self.outages.reachable("queue database")
            backoff = self.settings.reconnect_initial.total_seconds()
            try:
                await self._session(conn)
            finally:
                await _close(conn)
        if self.manager_id is not None or self._orphaned:
            await self._give_back()

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)

    async def _session(self, conn: asyncpg.Connection) -> None:
        driver = DeadlineDriver(conn, self.settings.command_timeout)
        queries = FencedQueries(
            driver,
            gate_wait=self.settings.dependency_wait,
            unflushed=self._unflushed,
            claim_batch=self.settings.batch_size,
        )
        queries.on_lost = self._cancel_execution
        self.outages.queries = queries
        manager = FencedQueueManager(queries)
        for name, handler in self.handlers.items():
            manager.register_executor(name, self._executor(name, handler, queries))

        try:
            config = await queue_config(queries.driver)
            await self._take_over(queries)
            self.manager_id = manager.queue_manager_id
            await self._beat(queries, manager)
            # What operators are told about failure budgets is read from here (genji-jobs show).
            await queue_worker_retry_schedule(
                queries.driver, manager.queue_manager_id, self.settings.retry_delays
            )
        except Exception as error:
            if await driver.is_loss(error):
                return
            raise
        runner = pgqueuer_logs.connection_task(
            manager.run(
                dequeue_timeout=self.settings.polling_fallback,
                batch_size=self.settings.batch_size,
                max_concurrent_tasks=self.settings.active_jobs,
                heartbeat_timeout=config.stale_heartbeat,
                shutdown_on_listener_failure=True,
            ),
            lambda: driver.connection_lost,
        )
        # Read in every case, so that asyncio never reports it as never retrieved.
        runner.add_done_callback(lambda task: task.cancelled() or task.exception())
        beats = asyncio.create_task(self._beat_forever(queries, manager, config))
        stop = asyncio.create_task(self._stop.wait())
        gone = asyncio.create_task(driver.lost.wait())
        # PGQueuer stops claiming on its own when its listener health check fails, and raises
        # only once every execution has ended.
        deaf = asyncio.create_task(manager.shutdown.wait())
        try:
            await asyncio.wait({runner, stop, gone, deaf}, return_when=asyncio.FIRST_COMPLETED)
            if self._stop.is_set() and not driver.connection_lost:
                await self._wind_down(manager, runner, queries, driver)
                return
            failure = manager.health_failure
            if failure is None and runner.done() and not runner.cancelled():
                failure = runner.exception()
            if failure is not None and await driver.is_loss(failure):
                log.warning("queue connection lost; cancelling its executions and reconnecting")
            elif manager.health_failure is not None:
                # The session still answers but hears no notifications (a connection behind a
                # pooler, an event loop stalled past the check), or its check's notification
                # failed: its executions may finish and write their results, and a new
                # connection listens again.
                log.warning(
                    "queue listener failed its health check (%s); finishing its executions, "
                    "then reconnecting",
                    type(failure).__name__,
                )
                await self._wind_down(manager, runner, queries, driver)
                return
            elif failure is not None:
                raise RuntimeError("queue manager stopped unexpectedly") from failure
            else:
                log.warning("queue connection lost; cancelling its executions and reconnecting")
            await self._abandon(manager, runner, queries)
        finally:
            for task in (beats, stop, gone, deaf):
                task.cancel()
            if not runner.done():
                runner.cancel()
                # Bounded: an execution that ignores its cancellation keeps PGQueuer waiting.
                await asyncio.wait({runner}, timeout=STOP_CLEANUP_SECONDS)

    def _executor(self, name: str, handler: Handler, queries: FencedQueries) -> PolicyExecutor:
        return PolicyExecutor(
            EntrypointExecutorParameters(
                concurrency_limit=self.settings.entrypoint_concurrency,
                func=_run_by_policy_executor,
                accepts_context=True,
                on_failure="hold",
            ),
            spec=self.registry.get(name),
            handler=handler,
            settings=self.settings,
            queries=queries,
            outages=self.outages,
            running=self.running,
        )

    def _cancel_execution(self, claim: ClaimToken) -> None:
        task = self.running.get(claim)
        if task is not None:
            task.cancel()

    async def _wind_down(
        self,
        manager: QueueManager,
        runner: asyncio.Task[None],
        queries: FencedQueries,
        driver: DeadlineDriver,
    ) -> None:
        """End the session's manager on a connection that still answers: drain, give back what
        no execution took, and remove its liveness row, which returns any claim it still holds."""
        queries.stopping = True
        await self._drain(manager, runner)
        if driver.connection_lost:
            # Lost meanwhile: what is left is settled on the next connection, as after a loss.
            self._remember(queries, list(queries.claims.values()))
            return
        with contextlib.suppress(*QUEUE_CONNECTION_ERRORS, TimeoutError):
            await self._return_unstarted(queries)
        # Best effort and brief, so the whole stop fits the 45 s container grace.
        with contextlib.suppress(*QUEUE_CONNECTION_ERRORS, TimeoutError):
            await asyncio.wait_for(
                queue_worker_stopped(queries.driver, manager.queue_manager_id),
                STOP_CLEANUP_SECONDS,
            )
            self.manager_id = None

    async def _drain(self, manager: QueueManager, runner: asyncio.Task[None]) -> None:
        """Stop claiming, let executions finish (heartbeats continue), then cancel the rest."""
        manager.shutdown.set()
        drain = self.settings.drain_timeout.total_seconds()
        log.info(
            "claiming stopped; draining %d running jobs for up to %.1fs",
            len(self.running),
            drain,
        )
        done, _ = await asyncio.wait({runner}, timeout=drain)
        if done:
            return
        log.info(
            "drain timeout reached; returning %d unfinished jobs to the queue", len(self.running)
        )
        for task in list(self.running.values()):
            task.cancel()
        # PGQueuer writes the cancellations through the adapter (queue_release) as it unwinds.
        done, _ = await asyncio.wait(
            {runner}, timeout=self.settings.command_timeout.total_seconds()
        )
        if not done:
            runner.cancel()

    async def _abandon(
        self, manager: QueueManager, runner: asyncio.Task[None], queries: FencedQueries
    ) -> None:
        """The connection is gone: stop every execution that relied on it, remember its claims,
        to complete those whose handler succeeded and release the others on the next one."""
        claims = list(queries.claims.values())
        for task in list(self.running.values()):
            task.cancel()
        manager.shutdown.set()
        runner.cancel()
        await asyncio.wait({runner}, timeout=self.settings.command_timeout.total_seconds())
        self._remember(queries, claims)

    def _remember(self, queries: FencedQueries, claims: list[ClaimToken]) -> None:
        """Keep `claims` of a lost connection for the next one: the successes PGQueuer could
        not write to complete, the others to release."""
        succeeded = queries.take_buffered_successes()
        self._unflushed.update(succeeded)
        self._orphaned.extend(claim for claim in claims if claim not in succeeded)

    async def _return_unstarted(self, queries: FencedQueries) -> None:
        """Once the drain is over, give back every claim no execution took: jobs a completion
        claimed that the stopped manager never took, or the rest of a claim cut short."""
        queries.prefetched.clear()
        for claim in list(queries.claims.values()):
            if claim not in self.running:
                await queue_release(queries.driver, claim, "worker stopped before starting it")
                queries.forget(claim)

    async def _take_over(self, queries: FencedQueries) -> None:
        """Settle what the previous session left, once that session has ended: return the
        claims of its cancelled executions, complete its successes again, and remove its
        manager's liveness row, which returns any claim that manager still holds. A session
        lost before that removal leaves the same manager to the next one."""
        await self._end_previous_backend(queries)
        await self._release_orphans(queries)
        # Before the previous manager's liveness row goes: until then this session may act for
        # it (queue_may_act_for). Its removal gives back whatever that manager still holds, so
        # the completions written again must come first.
        await self._recomplete(queries)
        if self.manager_id is not None:
            await queue_worker_stopped(queries.driver, self.manager_id)
            self.manager_id = None

    async def _give_back(self) -> None:
        """A stop whose session could not settle what it held (its connection was lost, or too
        slow to remove its liveness row): one brief attempt on a new connection, since each
        claim left would wait for the stale threshold. Best effort: a failure is logged."""
        conn: asyncpg.Connection | None = None
        try:
            async with asyncio.timeout(2 * STOP_CLEANUP_SECONDS):
                conn = await self.connect()
                driver = DeadlineDriver(conn, self.settings.command_timeout)
                await self._take_over(FencedQueries(driver, unflushed=self._unflushed))
        except Exception as error:
            log.warning(
                "stopping: could not give back what the last queue connection held (%s); "
                "stale reclaim will",
                type(error).__name__,
            )
        finally:
            if conn is not None:
                await _close(conn)

    async def _end_previous_backend(self, queries: FencedQueries) -> None:
        """Make sure the server session of our previous connection is gone: the database lets
        another session use a worker's claims, or remove its liveness row, only once the session
        that registered them has ended, and a connection we dropped (a command deadline) may
        still be running there."""
        previous, self._backend = self._backend, None
        if previous is not None:
            # Same role, so the worker may end it; backend_start guards against a reused pid.
            await queries.driver.fetch(
                "SELECT pg_terminate_backend(a.pid, $3) FROM pg_stat_activity a"
                " WHERE a.pid = $1 AND a.backend_start = $2",
                previous[0],
                previous[1],
                int(self.settings.command_timeout.total_seconds() * 1000),
            )
        rows = await queries.driver.fetch(
            "SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"
        )
        self._backend = (rows[0]["pid"], rows[0]["backend_start"])

    async def _release_orphans(self, queries: FencedQueries) -> None:
        """Give back claims of executions cancelled with a lost connection (fenced: a claim
        another worker has since taken is left alone)."""
        while self._orphaned:
            claim = self._orphaned[-1]
            await queue_release(queries.driver, claim, "worker lost its queue connection")
            self._orphaned.pop()

    async def _recomplete(self, queries: FencedQueries) -> None:
        """Complete again the successes whose asynchronous commit may not have reached disk
        before the connection was lost (a database crash loses them), and complete those the
        lost connection never wrote; each would otherwise run again, or leave its job claimed,
        blocking its entrypoint, until the stale-heartbeat threshold. Fenced by their own
        tokens: a completion that survived, or a job another worker has reclaimed since, is
        left alone."""
        sent = set(self._unflushed)
        if not sent:
            return
        written = await queue_complete_many(queries.driver, sent)
        # What was written now waits, like any completion, for a synchronous commit.
        self._unflushed.difference_update(sent - written)
        if written:
            log.info("completed %d jobs again whose completion was lost", len(written))

    async def _beat(self, queries: FencedQueries, manager: QueueManager) -> None:
        point = queries.flush_point()
        if await queue_worker_beat(
            queries.driver, manager.queue_manager_id, self.owner, socket.gethostname(), os.getpid()
        ):
            # It wrote and committed synchronously: earlier completions are on disk too.
            queries.flushed(point)

    async def _beat_forever(
        self, queries: FencedQueries, manager: QueueManager, config: QueueConfig
    ) -> None:
        interval = max(config.stale_heartbeat.total_seconds() / 4, 0.5)
        while True:
            await asyncio.sleep(interval)
            with contextlib.suppress(*QUEUE_CONNECTION_ERRORS):
                await self._beat(queries, manager)
