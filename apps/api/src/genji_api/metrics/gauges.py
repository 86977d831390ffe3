"""Queue-wide gauges from the last snapshot the refresh schedule read (never at scrape time).

While the database cannot be read only `genji_queue_metrics_database_up 0` and the time of the
last good snapshot are exported: stale depths would look like a healthy, idle queue.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import asyncpg
from genji_queue.metrics import EntrypointMetrics, queue_entrypoint_metrics, queue_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from genji_api.queue.report import OWNERS

ALIVE_WITHIN = timedelta(minutes=1)
"""A worker that beat within this long counts as alive, as in `genji_api.queue.report`."""
STATES = ("ready", "delayed", "running", "held")


@dataclass(frozen=True)
class QueueSnapshot:
    entrypoints: list[EntrypointMetrics]
    held: int
    uncertain_effects: int
    workers: dict[tuple[str, str], int]
    """(owner, "alive" | "silent") -> registered workers."""
    read_at: float
    """Unix time of the read."""


async def read_snapshot(conn: asyncpg.Connection) -> QueueSnapshot:
    """Both metrics functions on one connection."""
    totals = await queue_metrics(conn, ALIVE_WITHIN)
    silent_owners = [w.owner for w in totals.silent_workers]
    alive = totals.alive_by_owner()
    workers = {}
    for owner in OWNERS:
        workers[owner, "alive"] = alive[owner]
        workers[owner, "silent"] = silent_owners.count(owner)
    return QueueSnapshot(
        entrypoints=await queue_entrypoint_metrics(conn),
        held=totals.held,
        uncertain_effects=totals.uncertain_effects,
        workers=workers,
        read_at=time.time(),
    )


class QueueGauges:
    """A prometheus_client collector over the latest snapshot; the refresh task replaces it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshot: QueueSnapshot | None = None
        self._up = False
        self._read_at: float | None = None
        self.failures = 0
        """Refreshes that could not read the database, since the process started."""

    def update(self, snapshot: QueueSnapshot) -> None:
        with self._lock:
            self._snapshot, self._up, self._read_at = snapshot, True, snapshot.read_at

    def unreachable(self) -> None:
        with self._lock:
            self._snapshot, self._up = None, False
            self.failures += 1

    def collect(self) -> Iterator[Metric]:
        with self._lock:
            snapshot, up, read_at, failures = (
                self._snapshot,
                self._up,
                self._read_at,
                self.failures,
            )
        yield GaugeMetricFamily(
            "genji_queue_metrics_database_up",
            "1 when the last refresh of the queue gauges read the database, else 0.",
            value=1 if up else 0,
        )
        yield CounterMetricFamily(
            "genji_queue_metrics_refresh_failures",
            "Refreshes of the queue gauges that could not read the database.",
            value=failures,
        )
        if read_at is not None:
            yield GaugeMetricFamily(
                "genji_queue_metrics_refreshed_timestamp_seconds",
                "Unix time of the last successful refresh of the queue gauges.",
                value=read_at,
            )
        if snapshot is not None:
            yield from _queue_families(snapshot)


def _queue_families(snapshot: QueueSnapshot) -> Iterator[Metric]:
    jobs = GaugeMetricFamily(
        "genji_queue_jobs",
        "Jobs of each registered entrypoint by state (ready, delayed, running, held).",
        labels=["owner", "entrypoint", "state"],
    )
    age = GaugeMetricFamily(
        "genji_queue_oldest_ready_age_seconds",
        "How long the oldest ready job of each entrypoint has waited; 0 when none is ready.",
        labels=["owner", "entrypoint"],
    )
    for row in snapshot.entrypoints:
        for state in STATES:
            jobs.add_metric([row.owner, row.entrypoint, state], getattr(row, state))
        waited = row.oldest_ready_age.total_seconds() if row.oldest_ready_age else 0.0
        age.add_metric([row.owner, row.entrypoint], max(waited, 0.0))
    workers = GaugeMetricFamily(
        "genji_queue_workers",
        f"Registered queue workers per owner: alive (beat within {ALIVE_WITHIN}) or silent.",
        labels=["owner", "state"],
    )
    for (owner, state), count in snapshot.workers.items():
        workers.add_metric([owner, state], count)
    yield jobs
    yield age
    yield GaugeMetricFamily(
        "genji_queue_held_jobs", "Jobs held for an operator, every entrypoint.", value=snapshot.held
    )
    yield GaugeMetricFamily(
        "genji_queue_uncertain_effects",
        "Discord sends whose outcome is unknown until an operator resolves them.",
        value=snapshot.uncertain_effects,
    )
    yield workers
