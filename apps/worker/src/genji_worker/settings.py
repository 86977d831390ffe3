"""Worker settings. The defaults are the production values; tests shorten them."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import timedelta
from typing import Any


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


def settings_from_env(environ: Mapping[str, str] | None = None) -> WorkerSettings:
    """Settings with overrides from GENJI_QUEUE_<FIELD> (durations in seconds)."""
    environ = os.environ if environ is None else environ
    known = {f"{PREFIX}{item.name.upper()}" for item in fields(WorkerSettings)}
    for name in sorted(n for n in environ if n.startswith(PREFIX) and n not in known):
        where = DATABASE_OWNED.get(name)
        if where:
            raise ValueError(f"{name} is no longer a worker setting: {where}")
        raise ValueError(f"unknown worker setting {name}")
    overrides: dict[str, Any] = {}
    for item in fields(WorkerSettings):
        raw = environ.get(f"{PREFIX}{item.name.upper()}")
        if raw is None:
            continue
        default = getattr(WorkerSettings(), item.name)
        if isinstance(default, timedelta):
            overrides[item.name] = timedelta(seconds=float(raw))
        elif isinstance(default, tuple):
            overrides[item.name] = tuple(timedelta(seconds=float(v)) for v in raw.split(",") if v)
        else:
            overrides[item.name] = int(raw)
    return WorkerSettings(**overrides)


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


def metrics_settings_from_env(environ: Mapping[str, str] | None = None) -> MetricsSettings:
    """GENJI_METRICS_PORT, GENJI_METRICS_ADDR and GENJI_METRICS_REFRESH_SECONDS; an empty value
    is unset. Raises ValueError naming the variable when one is malformed."""
    environ = os.environ if environ is None else environ
    defaults = MetricsSettings()
    port: int | None = None
    raw_port = environ.get("GENJI_METRICS_PORT", "").strip()
    if raw_port:
        try:
            port = int(raw_port)
        except ValueError:
            raise ValueError(
                f"GENJI_METRICS_PORT must be a port number, not {raw_port!r}"
            ) from None
    refresh = defaults.refresh_seconds
    raw_refresh = environ.get("GENJI_METRICS_REFRESH_SECONDS", "").strip()
    if raw_refresh:
        try:
            refresh = float(raw_refresh)
        except ValueError:
            raise ValueError(
                f"GENJI_METRICS_REFRESH_SECONDS must be a number of seconds, not {raw_refresh!r}"
            ) from None
    addr = environ.get("GENJI_METRICS_ADDR", "") or defaults.addr
    return MetricsSettings(port=port, addr=addr, refresh_seconds=refresh)
