"""Outage state shared by one worker process's executions.

An outage of a dependency (Discord, the database a handler uses, bad configuration) is logged
once when it begins and once when it ends, and pauses claiming meanwhile with capped, jittered
backoff; the jobs it interrupted are deferred without consuming their failure budget. One
that lasts past `outage_alert_after` is reported to Sentry once (not per retry).
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from collections.abc import Callable

from genji_worker.claims import FencedQueries
from genji_worker.sentry_reports import report_outage
from genji_worker.settings import WorkerSettings

log = logging.getLogger("genji.queue")


@dataclasses.dataclass
class Outages:
    """Shared outage state of one worker process: logs transitions once, pauses claiming."""

    settings: WorkerSettings
    queries: FencedQueries | None = None
    down: dict[str, float] = dataclasses.field(default_factory=dict)
    """Dependency name -> current backoff in seconds."""
    since: dict[str, float] = dataclasses.field(default_factory=dict)
    """Dependency name -> when its outage began (clock time)."""
    alerted: set[str] = dataclasses.field(default_factory=set)
    clock: Callable[[], float] = time.monotonic

    def unreachable(self, dependency: str) -> None:
        """Another failure of `dependency`: reports it once its outage has lasted long enough."""
        now = self.clock()
        began = self.since.setdefault(dependency, now)
        lasted = now - began
        if (
            dependency not in self.alerted
            and lasted >= self.settings.outage_alert_after.total_seconds()
        ):
            self.alerted.add(dependency)
            report_outage(dependency, lasted)

    def reachable(self, dependency: str) -> None:
        self.since.pop(dependency, None)
        self.alerted.discard(dependency)

    def report(self, dependency: str, retry_after: float | None, actionable: bool = False) -> float:
        self.unreachable(dependency)
        backoff = self.down.get(dependency)
        if backoff is None:
            backoff = self.settings.reconnect_initial.total_seconds()
            if actionable:
                log.error(
                    "%s is misconfigured or refused our credentials; fix it, work is kept",
                    dependency,
                )
            else:
                log.warning(
                    "%s unavailable; pausing claims, no failure budget is consumed", dependency
                )
        else:
            backoff = min(backoff * 2, self.settings.reconnect_max.total_seconds())
        if actionable:
            backoff = self.settings.reconnect_max.total_seconds()
        self.down[dependency] = backoff
        delay = retry_after if retry_after is not None else backoff * random.uniform(0.8, 1.2)
        if self.queries is not None:
            self.queries.paused_until = max(self.queries.paused_until, time.monotonic() + delay)
        return delay

    def healthy(self) -> None:
        if self.down:
            log.info("%s available again; claiming resumed", ", ".join(sorted(self.down)))
            for dependency in self.down:
                self.reachable(dependency)
            self.down.clear()
