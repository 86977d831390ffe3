"""The stack's children: started in order, watched while the stack comes up, restarted with a
back-off once it is up, and stopped in order.

A child that exits before the stack is ready ends the stack with its last stderr lines. Exit
status 2 (genji_worker.process.EXIT_LOGIN, also the bot's and the API's for a missing or malformed
setting) is a configuration or login error: never restarted. A child that keeps failing within
FAST_FAILURE seconds of its start is restarted after a doubling delay and given up after
GIVE_UP_AFTER such failures in a row.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

from genji_worker.process import EXIT_LOGIN

from genji_devstack.local_stack.children import Child
from genji_devstack.local_stack.rundir import record_child
from genji_devstack.local_stack.signals import StopSignals

FAST_FAILURE = 10.0
GIVE_UP_AFTER = 5
FIRST_DELAY = 0.5
MAX_DELAY = 8.0
DRAIN_TIMEOUT = 60.0


class StackFailed(Exception):
    """The stack cannot run: its message for the operator and the exit status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _config_error(child: Child) -> StackFailed:
    return StackFailed(
        f"{child.name} exited with {EXIT_LOGIN}: a configuration or login error, which a "
        f"restart does not fix, so it is not restarted. Its last lines:\n{child.last_lines()}",
        EXIT_LOGIN,
    )


class Supervisor:
    def __init__(self, run: Path, signals: StopSignals) -> None:
        self.run = run
        self.signals = signals
        self.children: dict[str, Child] = {}
        self._fast_failures: dict[str, int] = {}
        self._restart_at: dict[str, float] = {}

    def start(self, child: Child) -> Child:
        self.children[child.name] = child
        self._spawn(child)
        return child

    def _spawn(self, child: Child) -> None:
        pid = child.spawn()
        record_child(self.run, child.name, pid)
        print(f"{child.name} started (pid {pid})", flush=True)

    def check_starting(self) -> None:
        """While the stack comes up, any child that exited ends it."""
        for child in self.children.values():
            code = child.exit_code()
            if code == EXIT_LOGIN:
                raise _config_error(child)
            if code is not None:
                raise StackFailed(
                    f"{child.name} exited with {code} before the stack was ready. Its last "
                    f"lines:\n{child.last_lines()}",
                    1,
                )

    def wait_until(
        self, child: Child, what: str, probe: Callable[[], bool], deadline: float
    ) -> None:
        end = time.monotonic() + deadline
        while True:
            self.check_starting()
            if probe():
                return
            if time.monotonic() > end:
                raise StackFailed(
                    f"{child.name}: {what} within {deadline:.0f}s. Its last lines:\n"
                    f"{child.last_lines()}",
                    1,
                )
            time.sleep(0.1)

    def watch(self) -> None:
        """Once the stack is up: restart children that exit, until a stop signal."""
        while True:
            time.sleep(0.2)
            now = time.monotonic()
            for child in self.children.values():
                due = self._restart_at.get(child.name)
                if due is not None:
                    if now >= due:
                        del self._restart_at[child.name]
                        if child.restart_note:
                            print(child.restart_note, flush=True)
                        self._spawn(child)
                    continue
                code = child.exit_code()
                if code is not None:
                    self._schedule_restart(child, code, now)

    def _schedule_restart(self, child: Child, code: int, now: float) -> None:
        if code == EXIT_LOGIN:
            raise _config_error(child)
        fast = now - child.started_at < FAST_FAILURE
        failures = self._fast_failures.get(child.name, 0) + 1 if fast else 0
        self._fast_failures[child.name] = failures
        if failures >= GIVE_UP_AFTER:
            raise StackFailed(
                f"{child.name} exited with {code}, its {failures}th failure in a row within "
                f"{FAST_FAILURE:.0f}s of starting: giving up. Its last lines:\n"
                f"{child.last_lines()}",
                1,
            )
        delay = min(FIRST_DELAY * 2 ** max(failures - 1, 0), MAX_DELAY) if failures else 0.0
        print(f"{child.name} exited with {code}; restarting in {delay:g}s", flush=True)
        self._restart_at[child.name] = now + delay

    def stop(self) -> None:
        """The API and the bot first (they drain, still reaching Discord and the OCR service),
        then the services; a second stop signal SIGKILLs whatever is left."""
        self.signals.begin_stop()
        children = list(self.children.values())
        for group in (
            [c for c in children if not c.service],
            [c for c in children if c.service],
        ):
            for child in reversed(group):
                child.signal(signal.SIGTERM)
            end = time.monotonic() + DRAIN_TIMEOUT
            while any(c.exit_code() is None for c in group):
                if self.signals.hurry or time.monotonic() > end:
                    for child in children:
                        child.signal(signal.SIGKILL)
                time.sleep(0.05)
