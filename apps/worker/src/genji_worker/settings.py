"""Worker settings. The defaults are the production values; tests shorten them."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import timedelta

from genji_worker.env_table import Variable, read_table, seconds, seconds_list, unknown_setting


@dataclass(frozen=True)
class WorkerSettings:
    active_jobs: int = 2
    """Concurrent executions per process (PGQueuer's max_concurrent_tasks)."""
    batch_size: int = 1
    entrypoint_concurrency: int = 1
    """Running jobs per entrypoint across every worker process. The database enforces exactly
    one (a unique index), so this is fixed and exists to be stated, not tuned."""
    polling_fallback: timedelta = timedelta(seconds=5)
    """How long an idle worker waits for a NOTIFY before polling anyway. The stale-heartbeat
    threshold and the crash-loop cap are the database's (queue_settings), not the worker's."""
    drain_timeout: timedelta = timedelta(seconds=30)
    reconnect_initial: timedelta = timedelta(seconds=1)
    reconnect_max: timedelta = timedelta(seconds=30)
    command_timeout: timedelta = timedelta(seconds=10)
    """Deadline of one queue database command, waiting for the shared connection included."""
    retry_delays: tuple[timedelta, ...] = field(
        default=(
            timedelta(seconds=5),
            timedelta(seconds=15),
            timedelta(minutes=1),
            timedelta(minutes=5),
            timedelta(minutes=15),
        )
    )
    """Delay after the n-th handler failure; one more failure holds the job."""
    handler_timeout: timedelta = timedelta(seconds=120)
    """Default per-execution deadline; an entrypoint's registry entry may override it."""
    dependency_wait: timedelta = timedelta(seconds=2)
    """Re-check interval for a job waiting on its parent or an earlier event of its entity."""
    outage_alert_after: timedelta = timedelta(minutes=5)
    """How long a dependency outage lasts before it is reported to Sentry (once)."""

    def __post_init__(self) -> None:
        if self.active_jobs < 2 * self.batch_size:
            raise ValueError("active_jobs must be at least twice batch_size (PGQueuer 1.1.1 rule)")
        if self.entrypoint_concurrency != 1:
            raise ValueError("entrypoint_concurrency is enforced as 1 by the database")
        if self.command_timeout <= timedelta(0):
            raise ValueError("command_timeout must be positive")


PREFIX = "GENJI_QUEUE_"
# Settings the database owns since workers must not choose them (see docs/queue-operations.md).
DATABASE_OWNED = {
    "GENJI_QUEUE_STALE_HEARTBEAT": "set queue_settings.stale_heartbeat in the database",
    "GENJI_QUEUE_MAX_RECLAIMS": "set queue_settings.max_reclaims in the database",
}


def _queue_variable(name: str, default: object) -> Variable:
    variable = f"{PREFIX}{name.upper()}"
    if isinstance(default, timedelta):
        return Variable(variable, name, seconds, "a number of seconds", name)
    if isinstance(default, tuple):
        return Variable(variable, name, seconds_list, "comma-separated seconds", name)
    return Variable(variable, name, int, "a whole number", name)


# GENJI_QUEUE_<FIELD> for every field, typed by its default; the docs are the fields' own.
QUEUE_TABLE = tuple(
    _queue_variable(item.name, getattr(WorkerSettings(), item.name))
    for item in fields(WorkerSettings)
)


def settings_from_env(environ: Mapping[str, str] | None = None) -> WorkerSettings:
    """Settings with overrides from GENJI_QUEUE_<FIELD> (durations in seconds)."""
    environ = os.environ if environ is None else environ
    problem = unknown_setting(
        environ, (v.name for v in QUEUE_TABLE), retired=DATABASE_OWNED, prefix=PREFIX
    )
    if problem:
        raise ValueError(problem)
    return WorkerSettings(**read_table(QUEUE_TABLE, environ))


@dataclass(frozen=True)
class MetricsSettings:
    """The process's Prometheus endpoint (genji_worker.metrics); off unless a port is set."""

    port: int | None = None
    """GENJI_METRICS_PORT: serve /metrics here; 0 lets the system choose a free port."""
    addr: str = "127.0.0.1"
    """GENJI_METRICS_ADDR: the address the endpoint listens on (loopback by default)."""
    refresh_seconds: float = 15.0
    """GENJI_METRICS_REFRESH_SECONDS: how often the API process re-reads the queue gauges."""

    def __post_init__(self) -> None:
        if self.port is not None and not 0 <= self.port <= 65535:
            raise ValueError(f"GENJI_METRICS_PORT must be a port number, not {self.port}")
        if not self.addr or self.addr != self.addr.strip():
            raise ValueError(f"GENJI_METRICS_ADDR must be an address, not {self.addr!r}")
        if not self.refresh_seconds > 0:
            raise ValueError(
                f"GENJI_METRICS_REFRESH_SECONDS must be positive, not {self.refresh_seconds}"
            )


METRICS_TABLE = (
    Variable("GENJI_METRICS_PORT", "port", int, "a port number", "serve /metrics on this port"),
    Variable("GENJI_METRICS_ADDR", "addr", str, "an address", "the address /metrics listens on"),
    Variable(
        "GENJI_METRICS_REFRESH_SECONDS",
        "refresh_seconds",
        float,
        "a number of seconds",
        "how often the API process re-reads the queue gauges",
    ),
)


def metrics_settings_from_env(environ: Mapping[str, str] | None = None) -> MetricsSettings:
    """GENJI_METRICS_PORT, GENJI_METRICS_ADDR and GENJI_METRICS_REFRESH_SECONDS; an empty value
    is unset. Raises ValueError naming the variable when one is malformed."""
    environ = os.environ if environ is None else environ
    return MetricsSettings(**read_table(METRICS_TABLE, environ))
