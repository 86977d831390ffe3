"""A transport-independent sink for external effects, kept on disk outside worker processes.

Every effect is appended (and fsynced) as a JSON line before and after it happens, so the
evidence survives SIGKILL of the worker. Each line names the execution it belongs to: the
worker's pid, the attempt, and the claim (queue manager and claim time), so two executions of
one job, even in one process, are told apart. An execution cancelled while an effect is under
way records the stage 'cancelled'.

What an effect does is steered from outside through commands.json,
{"<event name or *>:<effect>[@<pid>]": action}, where action is one of complete, fail, fail:N
(the first N attempts), uncertain, hang, outage, or crash (SIGKILLs the worker itself). A key
with @<pid> applies to that worker process only and wins over the same key without it.
Tests and local runs without a Discord token use it in place of Discord.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from genji_sdk import JobContext
from genji_sdk.failures import DependencyUnavailable

EFFECTS = "effects.jsonl"
COMMANDS = "commands.json"


def append_line(path: Path, entry: dict[str, Any]) -> None:
    """Append `entry` as one JSON line and fsync it, so it survives SIGKILL of the writer."""
    line = json.dumps(entry) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def execution_entry(context: JobContext, effect: str) -> dict[str, Any]:
    """What every line about `effect` says of the execution it belongs to."""
    return {
        "job_id": str(context.job_id),
        "event": context.event_name,
        "effect": effect,
        "attempt": context.attempt,
        "pid": os.getpid(),
        "manager": str(context.claim.queue_manager_id),
        "claimed_at": context.claim.claimed_at.isoformat(),
    }


def read_lines(path: Path) -> list[dict[str, Any]]:
    """Every entry `append_line` wrote to `path`; none when it does not exist yet."""
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in lines if line.strip()]


class EffectFailed(Exception):
    """The recorder was told to fail this effect."""


class UncertainEffect(Exception):
    """The effect happened but its result was not confirmed."""


class EffectRecorder:
    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    # -- steering (tests) --------------------------------------------------------------------
    def command(self, target: str, action: str, pid: int | None = None) -> None:
        """Steer `target` ("<event or *>:<effect>"), for one worker process when `pid` is given."""
        commands = self.commands()
        commands[target if pid is None else f"{target}@{pid}"] = action
        temporary = self.directory / f".{COMMANDS}.{os.getpid()}"
        temporary.write_text(json.dumps(commands))
        temporary.replace(self.directory / COMMANDS)

    def commands(self) -> dict[str, str]:
        try:
            loaded: dict[str, str] = json.loads((self.directory / COMMANDS).read_text())
        except FileNotFoundError:
            return {}
        return loaded

    def events(self) -> list[dict[str, Any]]:
        return read_lines(self.directory / EFFECTS)

    def count(
        self, effect: str, stage: str = "done", job_id: str | None = None, pid: int | None = None
    ) -> int:
        return sum(
            1
            for e in self.events()
            if e["effect"] == effect
            and e["stage"] == stage
            and (job_id is None or e["job_id"] == job_id)
            and (pid is None or e["pid"] == pid)
        )

    def execution(self, manager: UUID, claimed_at: datetime) -> list[tuple[str, str]]:
        """(effect, stage) in order, for the execution that held the claim (manager, claimed_at)."""
        return [
            (e["effect"], e["stage"])
            for e in self.events()
            if e.get("manager") == str(manager)
            and datetime.fromisoformat(e["claimed_at"]) == claimed_at
        ]

    # -- recording (workers) -----------------------------------------------------------------
    def _append(self, entry: dict[str, Any]) -> None:
        append_line(self.directory / EFFECTS, entry)

    def _action(self, context: JobContext, effect: str) -> str:
        commands = self.commands()
        pid = os.getpid()
        return (
            commands.get(f"{context.event_name}:{effect}@{pid}")
            or commands.get(f"*:{effect}@{pid}")
            or commands.get(f"{context.event_name}:{effect}")
            or commands.get(f"*:{effect}")
            or "complete"
        )

    async def perform(self, context: JobContext, effect: str) -> None:
        entry = execution_entry(context, effect)
        self._append({**entry, "stage": "start"})
        action = self._action(context, effect)
        try:
            while action == "hang":
                await asyncio.sleep(0.05)
                action = self._action(context, effect)
        except asyncio.CancelledError:
            self._append({**entry, "stage": "cancelled"})
            raise
        if action == "fail" or (action.startswith("fail:") and context.attempt <= int(action[5:])):
            self._append({**entry, "stage": "failed"})
            raise EffectFailed(f"{effect} failed on command")
        if action == "crash":
            self._append({**entry, "stage": "crash"})
            os.kill(os.getpid(), signal.SIGKILL)
        if action == "outage":
            self._append({**entry, "stage": "outage"})
            raise DependencyUnavailable("discord", "recorder outage")
        self._append({**entry, "stage": "done"})
        if action == "uncertain":
            raise UncertainEffect(f"{effect} happened but its result was not confirmed")
