"""The shape every periodic task of the API process shares: run a tick, wait, repeat until stop.

A run of failing ticks is logged once when it begins and once when a tick succeeds again, never
per attempt; each tick is its own transaction, so a failure leaves nothing half done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Periodic:
    """How one periodic task names itself in its log."""

    log: logging.Logger
    failed: str
    """Logged with the traceback when ticks start failing, e.g. "pruning failed"."""
    recovered: str
    expected: tuple[type[BaseException], ...] = ()
    """Failures that are no bug (the database is down): logged as `unreachable`, without a
    traceback."""
    unreachable: str = ""


async def run_periodically(
    task: Periodic,
    tick: Callable[[], Awaitable[object]],
    every: float,
    stop: asyncio.Event,
    *,
    on_failure: Callable[[], None] | None = None,
) -> None:
    """Await `tick()` every `every` seconds until `stop` is set."""
    failing = False
    while not stop.is_set():
        try:
            await tick()
        except Exception as error:
            if on_failure is not None:
                on_failure()
            if not failing:
                if isinstance(error, task.expected):
                    task.log.warning(
                        "%s (%s); retrying every %ss", task.unreachable, type(error).__name__, every
                    )
                else:
                    task.log.exception("%s; retrying every %ss", task.failed, every)
            failing = True
        else:
            if failing:
                task.log.info("%s", task.recovered)
            failing = False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
