"""Process-local Prometheus series of a worker process, and its /metrics endpoint.

Labels come only from the entrypoint registry (owner, entrypoint) and the fixed outcome names
below, so the number of series is bounded; job ids, keys and payloads are never labels.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args
from wsgiref.simple_server import WSGIServer

from genji_sdk import EventSpec
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.exposition import start_http_server
from prometheus_client.registry import Collector

from genji_worker.settings import MetricsSettings

log = logging.getLogger("genji.queue")

Outcome = Literal[
    "succeeded", "retried", "deferred", "held", "lost", "released", "interrupted", "canceled"
]
"""How one execution ended: succeeded; retried (a handler failure within the budget); deferred
(an outage or rate limit, budget untouched); held; lost (a newer owner holds the claim, nothing
written); released (one of our own queue writes failed, the job was given back); interrupted
(the queue connection was lost, the claim is recovered later); canceled (shutdown)."""
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)

# No `_created` series beside every counter and histogram: they double the output and Grafana
# does not use them.
disable_created_metrics()  # type: ignore[no-untyped-call]

REGISTRY = CollectorRegistry()
"""The worker series of this process (plus process_* from the standard process collector)."""
ProcessCollector(registry=REGISTRY)

JOB_OUTCOMES = Counter(
    "genji_job_outcomes",
    "Executions of this process by how they ended.",
    ["owner", "entrypoint", "outcome"],
    registry=REGISTRY,
)
HANDLER_DURATION = Histogram(
    "genji_job_handler_duration_seconds",
    "Time spent in the handler of one execution, whatever its outcome.",
    ["owner", "entrypoint"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0),
    registry=REGISTRY,
)


def declare(specs: Iterable[EventSpec]) -> None:
    """Create every series of these entrypoints at zero, so rates start at the first scrape."""
    for spec in specs:
        HANDLER_DURATION.labels(spec.owner, spec.name)
        for outcome in OUTCOMES:
            JOB_OUTCOMES.labels(spec.owner, spec.name, outcome)


def count_outcome(spec: EventSpec, outcome: Outcome) -> None:
    JOB_OUTCOMES.labels(spec.owner, spec.name, outcome).inc()


def observe_handler(spec: EventSpec, seconds: float) -> None:
    HANDLER_DURATION.labels(spec.owner, spec.name).observe(seconds)


@dataclass
class MetricsServer:
    """A running /metrics endpoint (prometheus_client's threaded HTTP server)."""

    server: WSGIServer
    thread: threading.Thread

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        shown = host.decode() if isinstance(host, bytes) else host
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{port}/metrics"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def start_metrics_server(
    settings: MetricsSettings, registry: Collector = REGISTRY
) -> MetricsServer:
    """Serve `registry` at /metrics on the configured address; requires settings.port."""
    assert settings.port is not None
    server, thread = start_http_server(settings.port, settings.addr, registry)
    running = MetricsServer(server, thread)
    log.info("metrics served at %s", running.url)
    return running
