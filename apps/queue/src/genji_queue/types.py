"""Outcomes the transition functions report."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

BeginDecision = Literal["run", "deferred", "held", "lost"]
"""queue_begin: run the handler; rescheduled to wait; held before running; claim is stale."""

FailOutcome = Literal["retry", "held", "lost"]
"""queue_fail: scheduled for another attempt; failure budget exhausted; claim is stale."""

ErrorRecord = dict[str, str]
"""{"exception_type": ..., "exception_message": ...}; the database bounds its size."""


@dataclass(frozen=True)
class SilentWorker:
    """A registered worker whose last beat is older than queue_metrics' window."""

    owner: str
    host: str
    pid: int
    beat_at: datetime


@dataclass(frozen=True)
class QueueMetrics:
    """The row of queue_metrics: depth by state, held and uncertain counts, workers."""

    ready: int
    delayed: int
    running: int
    held: int
    uncertain_effects: int
    oldest_ready_age: timedelta | None
    """None when no job is ready."""
    workers_alive: int
    workers_silent: int
    bot_ready: int
    api_ready: int
    bot_running: int
    api_running: int
    bot_workers_alive: int
    api_workers_alive: int
    silent_workers: tuple[SilentWorker, ...]
    """Newest beat first."""

    def ready_by_owner(self) -> dict[str, int]:
        return {"bot": self.bot_ready, "api": self.api_ready}

    def running_by_owner(self) -> dict[str, int]:
        return {"bot": self.bot_running, "api": self.api_running}

    def alive_by_owner(self) -> dict[str, int]:
        return {"bot": self.bot_workers_alive, "api": self.api_workers_alive}
