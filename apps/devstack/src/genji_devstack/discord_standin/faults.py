"""Faults injected into REST requests: an error status (before or after the request is applied),
a 429, a lost reply, a delay, a freeze.

A fault names a route as "METHOD /discord/route/{template}" (parameter names do not matter:
"{channel_id}" and "{id}" match alike), optionally one channel, and how many matching requests
it applies to (`times`; None until cleared). The first unspent matching fault, oldest first,
applies to a request.
"""

from __future__ import annotations

import asyncio
import enum
import re
from dataclasses import dataclass, field
from typing import Any

_PARAMETER = re.compile(r"\{[^}]*\}")


class Action(enum.StrEnum):
    STATUS = "status"
    # Applied, then answered with the error status: Discord did it and said it failed (a 5xx
    # after the write, which discord.py repeats).
    STATUS_AFTER = "status-after"
    RATELIMIT = "ratelimit"
    LOSE_REPLY = "lose-reply"
    DELAY = "delay"
    FREEZE = "freeze"


def route_key(method: str, template: str) -> str:
    """ "POST /channels/{channel_id}/messages" -> "POST /channels/{}/messages"."""
    return f"{method.upper()} {_PARAMETER.sub('{}', template.rstrip('/'))}"


@dataclass
class Fault:
    id: int
    route: str
    action: Action
    channel_id: int | None = None
    status: int = 500
    code: int = 0
    message: str = "Internal Server Error"
    retry_after: float = 1.0
    global_: bool = False
    seconds: float = 0.0
    times: int | None = 1
    fired: int = 0

    @property
    def spent(self) -> bool:
        return self.times is not None and self.fired >= self.times

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "route": self.route,
            "action": str(self.action),
            "channel_id": self.channel_id,
            "status": self.status,
            "code": self.code,
            "message": self.message,
            "retry_after": self.retry_after,
            "global": self.global_,
            "seconds": self.seconds,
            "times": self.times,
            "fired": self.fired,
            "spent": self.spent,
        }


def fault_from_json(fault_id: int, body: dict[str, Any]) -> Fault:
    """A fault from the control API's JSON (raises ValueError/KeyError when it is malformed)."""
    route = str(body["route"])
    method, _, template = route.partition(" ")
    if not template.startswith("/"):
        raise ValueError("route must be 'METHOD /path/{template}'")
    times = body.get("times", 1)
    channel = body.get("channel_id")
    return Fault(
        id=fault_id,
        route=route_key(method, template),
        action=Action(body["action"]),
        channel_id=int(channel) if channel is not None else None,
        status=int(body.get("status", 500)),
        code=int(body.get("code", 0)),
        message=str(body.get("message", "Internal Server Error")),
        retry_after=float(body.get("retry_after", 1.0)),
        global_=bool(body.get("global", False)),
        seconds=float(body.get("seconds", 0.0)),
        times=None if not times else int(times),
    )


@dataclass
class FaultBook:
    faults: list[Fault] = field(default_factory=list)
    _next_id: int = 1
    _thaw: asyncio.Event = field(default_factory=asyncio.Event)
    frozen: int = 0

    def add(self, body: dict[str, Any]) -> Fault:
        fault = fault_from_json(self._next_id, body)
        self._next_id += 1
        self.faults.append(fault)
        return fault

    def clear(self) -> None:
        self.faults.clear()
        self._thaw.set()
        self._thaw = asyncio.Event()

    def take(self, method: str, template: str, channel_id: int | None) -> Fault | None:
        key = route_key(method, template)
        for fault in self.faults:
            if fault.spent or fault.route != key:
                continue
            if fault.channel_id is not None and fault.channel_id != channel_id:
                continue
            fault.fired += 1
            return fault
        return None

    async def hold(self) -> None:
        """Wait until the faults are cleared (a frozen request)."""
        thaw = self._thaw
        self.frozen += 1
        try:
            await thaw.wait()
        finally:
            self.frozen -= 1
