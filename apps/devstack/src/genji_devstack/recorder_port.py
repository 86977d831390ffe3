"""The Discord port and checkpoints of the bot, recorded on disk instead of sent to Discord.

Runs inside the bot process for tests and for local runs without a bot token. Every boundary of
every effect is appended (and fsynced) to the recorder's effects.jsonl (genji_devstack.recorder's
format: `start` before, `done` after), and every Discord operation to discord.jsonl with the ids
it returned, so the evidence survives SIGKILL of the bot.

Steering, through the recorder's commands.json, by "<event or *>:<effect>[@pid]" (an effect key,
or its name before the first ':' ):
- at a boundary: complete (default), fail, fail:N (the first N attempts), hang, crash (SIGKILL
  before the effect), crash-after (SIGKILL once it is done), outage;
- on a send: lose-reply / lose-reply:N (the message is delivered, then the reply is lost),
  crash-mid (delivered, then SIGKILL before the id is recorded), forbidden (refused for good),
  not-sent (never reached Discord);
- at a destination, by its name as `destination_of` gives it ("channel:<id>"): forbidden (every
  send, history read and edit there is refused for good, as a channel the bot lost access to),
  complete (default) to lift it.
Every refused request is logged as op "refused", with the operation and the time.
A send with a nonce that an earlier send to the same destination carried within `nonce_window`
returns that message and delivers nothing, as Discord does (none of the actions above apply to
it); a window of zero turns nonces off.
Guild members: members.json, {"absent": [user ids]}; everyone else is a member.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import os
import signal
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
from genji_bot.effects.checkpoints import Stage
from genji_bot.effects.port import (
    RECENT_LIMIT,
    Channel,
    DirectMessage,
    Forbidden,
    Forward,
    NewForumThread,
    NotFound,
    NotSent,
    Outgoing,
    Seen,
    Sent,
    Target,
    destination_of,
)
from genji_sdk import JobContext
from genji_sdk.failures import DependencyUnavailable

from genji_devstack.recorder import (
    EffectFailed,
    EffectRecorder,
    append_line,
    execution_entry,
    read_lines,
)

DISCORD = "discord.jsonl"
MEMBERS = "members.json"
NONCE_WINDOW = timedelta(seconds=60)

_current: contextvars.ContextVar[tuple[JobContext, str] | None] = contextvars.ContextVar(
    "recorded_effect", default=None
)
_ids = itertools.count()


class ReplyLost(ConnectionResetError):
    """The request reached Discord; its reply did not reach the bot."""


def _new_id() -> int:
    # Snowflake-sized (10**18 <= id < 2**63) and unique across processes: microseconds, then
    # the pid and a per-process counter.
    return (time.time_ns() // 1000) * 1000 + (os.getpid() % 10) * 100 + next(_ids) % 100


class RecorderPort:
    def __init__(self, directory: Path | str, nonce_window: timedelta = NONCE_WINDOW) -> None:
        self.recorder = EffectRecorder(directory)
        self.directory = self.recorder.directory
        self.nonce_window = nonce_window

    # -- checkpoints ---------------------------------------------------------------------
    async def reached(self, context: JobContext, effect: str, stage: Stage) -> None:
        _current.set((context, effect))
        entry = execution_entry(context, effect)
        if stage == "after":
            self.recorder._append({**entry, "stage": "done"})
            if self._action(context, effect) == "crash-after":
                os.kill(os.getpid(), signal.SIGKILL)
            return
        self.recorder._append({**entry, "stage": "start"})
        action = self._action(context, effect)
        try:
            while action == "hang":
                await asyncio.sleep(0.05)
                action = self._action(context, effect)
        except asyncio.CancelledError:
            self.recorder._append({**entry, "stage": "cancelled"})
            raise
        if action == "fail" or (action.startswith("fail:") and context.attempt <= int(action[5:])):
            self.recorder._append({**entry, "stage": "failed"})
            raise EffectFailed(f"{effect} failed on command")
        if action == "crash":
            self.recorder._append({**entry, "stage": "crash"})
            os.kill(os.getpid(), signal.SIGKILL)
        if action == "outage":
            self.recorder._append({**entry, "stage": "outage"})
            raise DependencyUnavailable("discord", "recorder outage")

    def _action(self, context: JobContext, effect: str) -> str:
        commands = self.recorder.commands()
        pid = os.getpid()
        name = effect.split(":", 1)[0]
        for key in (effect, name):
            for candidate in (
                f"{context.event_name}:{key}@{pid}",
                f"*:{key}@{pid}",
                f"{context.event_name}:{key}",
                f"*:{key}",
            ):
                if candidate in commands:
                    return commands[candidate]
        return "complete"

    # -- the world as recorded -----------------------------------------------------------
    def _log(self, entry: dict[str, Any]) -> None:
        append_line(self.directory / DISCORD, entry)

    def operations(self, op: str | None = None) -> list[dict[str, Any]]:
        entries = read_lines(self.directory / DISCORD)
        return [e for e in entries if op is None or e["op"] == op]

    def sends(
        self,
        *,
        destination: str | None = None,
        effect: str | None = None,
        job_id: str | None = None,
    ) -> list[dict[str, Any]]:
        """Every message delivered (including ones whose reply was lost)."""
        return [
            e
            for e in self.operations("send")
            if (destination is None or e["destination"] == destination)
            and (effect is None or e["effect"] == effect)
            and (job_id is None or e["job_id"] == job_id)
        ]

    def messages(self) -> dict[int, dict[str, Any]]:
        """Messages that exist now, by message id, with their latest content."""
        current: dict[int, dict[str, Any]] = {}
        for entry in self.operations():
            if entry["op"] == "send":
                current[entry["message_id"]] = entry
            elif entry["op"] == "edit" and entry["message_id"] in current:
                current[entry["message_id"]] = {
                    **current[entry["message_id"]],
                    **entry,
                    "op": "send",
                }
            elif entry["op"] == "delete":
                current.pop(entry["message_id"], None)
        return current

    def set_absent_members(self, user_ids: list[int]) -> None:
        (self.directory / MEMBERS).write_text(json.dumps({"absent": user_ids}))

    def _absent(self) -> set[int]:
        try:
            return set(json.loads((self.directory / MEMBERS).read_text()).get("absent", []))
        except FileNotFoundError:
            return set()

    def roles_of(self, user_id: int) -> frozenset[int]:
        roles: set[int] = set()
        for entry in self.operations("roles"):
            if entry["user_id"] == user_id:
                roles |= set(entry["add"])
                roles -= set(entry["remove"])
        return frozenset(roles)

    def command(self, target: str, action: str, pid: int | None = None) -> None:
        self.recorder.command(target, action, pid)

    def _refuse(self, operation: str, destination: str, refused: bool) -> None:
        """Log and raise Forbidden when this request is refused (`refused`, or a destination
        steered to forbidden)."""
        if not refused and self.recorder.commands().get(destination) != "forbidden":
            return
        self._log(
            {
                "op": "refused",
                **self._who(),
                "operation": operation,
                "destination": destination,
                "at": datetime.now(UTC).isoformat(),
            }
        )
        raise Forbidden(f"{destination} refuses the {operation}")

    # -- DiscordPort -----------------------------------------------------------------------
    def _who(self) -> dict[str, Any]:
        current = _current.get()
        if current is None:
            return {"job_id": None, "event": None, "effect": None, "attempt": None}
        context, effect = current
        return {
            "job_id": str(context.job_id),
            "event": context.event_name,
            "effect": effect,
            "attempt": context.attempt,
        }

    def _deduplicated(self, destination: str, nonce: str | None) -> Sent | None:
        if nonce is None or self.nonce_window <= timedelta(0):
            return None
        oldest = datetime.now(UTC) - self.nonce_window
        for entry in self.sends(destination=destination):
            if entry.get("nonce") == nonce and datetime.fromisoformat(entry["created_at"]) > oldest:
                return Sent(entry["channel_id"], entry["message_id"], entry["thread_id"])
        return None

    async def send(self, target: Target, message: Outgoing, *, nonce: str | None = None) -> Sent:
        earlier = self._deduplicated(destination_of(target), nonce)
        if earlier is not None:
            self._log({"op": "deduplicated", **self._who(), "destination": destination_of(target)})
            return earlier
        current = _current.get()
        action = self._action(*current) if current else "complete"
        self._refuse(
            "send",
            destination_of(target),
            action == "forbidden"
            or (isinstance(target, DirectMessage) and target.user_id in self._absent()),
        )
        if action == "not-sent":
            raise NotSent("connection refused")
        message_id = _new_id()
        if isinstance(target, NewForumThread):
            sent = Sent(channel_id=message_id, message_id=message_id, thread_id=message_id)
        elif isinstance(target, DirectMessage):
            sent = Sent(channel_id=target.user_id, message_id=message_id)
        else:
            sent = Sent(channel_id=target.channel_id, message_id=message_id)
        self._log(
            {
                "op": "send",
                **self._who(),
                "pid": os.getpid(),
                "destination": destination_of(target),
                "target": msgspec.to_builtins(target),
                "channel_id": sent.channel_id,
                "message_id": sent.message_id,
                "thread_id": sent.thread_id,
                "fingerprint": message.fingerprint(),
                "message": msgspec.to_builtins(message),
                "nonce": nonce,
                "created_at": datetime.now(UTC).isoformat(),
            }
        )
        if action == "crash-mid":
            os.kill(os.getpid(), signal.SIGKILL)
        if action == "lose-reply" or (
            action.startswith("lose-reply:")
            and current is not None
            and current[0].attempt <= int(action.split(":")[1])
        ):
            raise ReplyLost("the reply to the send was lost")
        return sent

    async def recent(self, target: Target, since: datetime) -> list[Seen]:
        destination = destination_of(target)
        self._refuse("recent", destination, False)
        seen = [
            Seen(
                sent=Sent(e["channel_id"], e["message_id"], e["thread_id"]),
                fingerprint=e["fingerprint"],
                created_at=datetime.fromisoformat(e["created_at"]),
            )
            for e in self.messages().values()
            if e["destination"] == destination and datetime.fromisoformat(e["created_at"]) >= since
        ]
        # As the Discord port reads history: the first RECENT_LIMIT messages after `since`
        # (those a send made right after its intent is among), newest first.
        first = sorted(seen, key=lambda item: item.created_at)[:RECENT_LIMIT]
        return first[::-1]

    async def edit(self, channel_id: int, message_id: int, message: Outgoing) -> None:
        self._refuse("edit", destination_of(Channel(channel_id)), False)
        if message_id not in self.messages():
            raise NotFound(f"message {message_id} does not exist")
        self._log(
            {
                "op": "edit",
                **self._who(),
                "channel_id": channel_id,
                "message_id": message_id,
                "fingerprint": message.fingerprint(),
                "message": msgspec.to_builtins(message),
            }
        )

    async def delete(self, channel_id: int, message_id: int) -> None:
        if message_id in self.messages():
            self._log(
                {"op": "delete", **self._who(), "channel_id": channel_id, "message_id": message_id}
            )

    async def update_thread(
        self,
        thread_id: int,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        tags: tuple[str, ...] | None = None,
    ) -> None:
        self._log(
            {
                "op": "thread",
                **self._who(),
                "thread_id": thread_id,
                "archived": archived,
                "locked": locked,
                "tags": list(tags) if tags is not None else None,
            }
        )

    async def member_roles(self, user_id: int) -> frozenset[int] | None:
        if user_id in self._absent():
            return None
        return self.roles_of(user_id)

    async def set_member_roles(
        self, user_id: int, *, add: frozenset[int], remove: frozenset[int]
    ) -> bool:
        if user_id in self._absent():
            return False
        self._log(
            {
                "op": "roles",
                **self._who(),
                "user_id": user_id,
                "add": sorted(add),
                "remove": sorted(remove),
            }
        )
        return True


__all__ = ("Channel", "Forward", "RecorderPort", "ReplyLost")
