"""The gateway: a websocket speaking Discord's gateway protocol v10 in plain JSON text frames.

HELLO (op 10) -> IDENTIFY (op 2, checked token; a wrong one closes with 4004) -> READY and
GUILD_CREATE dispatches; heartbeats (op 1) are answered with op 11. RESUME (op 6) of a known
session replays the dispatches after the client's sequence and sends RESUMED; an unknown
session gets INVALID_SESSION (op 9, d=false). discord.py asks for zlib-stream compression
but reads text frames uncompressed, so none is used.

Dispatches go to the latest identified session; while its socket is gone they are kept for a
RESUME to replay, or, when another session is still connected (a second process with the same
token), that one takes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from genji_devstack.discord_standin import shapes
from genji_devstack.discord_standin.world import World

log = logging.getLogger("genji.discord_standin.gateway")

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
RESUME = 6
RECONNECT = 7
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

AUTHENTICATION_FAILED = 4004
# Dispatches kept per session for a RESUME to replay; older ones are dropped (a client that
# far behind would be told to identify again by Discord too).
REPLAY_LIMIT = 5_000


@dataclass
class Session:
    id: str
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None


@dataclass
class GatewayCounters:
    identifies: int = 0
    readies: int = 0
    resumes: int = 0
    resumed: int = 0
    invalid_sessions: int = 0
    heartbeats: int = 0
    closes: list[int] = field(default_factory=list)

    def describe(self) -> dict[str, Any]:
        return {
            "identifies": self.identifies,
            "readies": self.readies,
            "resumes": self.resumes,
            "resumed": self.resumed,
            "invalid_sessions": self.invalid_sessions,
            "heartbeats": self.heartbeats,
            "closes": list(self.closes),
        }


class Gateway:
    def __init__(self, world: World, *, heartbeat_interval_ms: int, url: str = "") -> None:
        self.world = world
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.url = url
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.sockets: set[web.WebSocketResponse] = set()
        self.counters = GatewayCounters()
        self.changed = asyncio.Condition()

    # -- sending ------------------------------------------------------------------------------
    @staticmethod
    async def _send(socket: web.WebSocketResponse | None, frame: dict[str, Any]) -> None:
        if socket is None or socket.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await socket.send_str(json.dumps(frame))

    async def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        if len(session.sent) > REPLAY_LIMIT:
            del session.sent[: len(session.sent) - REPLAY_LIMIT]
        await self._send(session.socket, frame)

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send an event to the bot's session; False when no session was ever identified."""
        session = self.current
        if session is None:
            return False
        await self._dispatch_to(session, event, data)
        return True

    @property
    def connected(self) -> bool:
        session = self.current
        return session is not None and session.socket is not None and not session.socket.closed

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    # -- faults -------------------------------------------------------------------------------
    async def close(self, code: int) -> bool:
        session = self.current
        if session is None or session.socket is None or session.socket.closed:
            return False
        self.counters.closes.append(code)
        socket = session.socket
        session.socket = None
        # The client may not answer the close frame at once; do not hold the caller meanwhile.
        asyncio.get_running_loop().create_task(socket.close(code=code))
        return True

    async def reconnect(self) -> bool:
        session = self.current
        if session is None or session.socket is None:
            return False
        await self._send(session.socket, {"op": RECONNECT, "d": None})
        return True

    async def invalidate(self, *, resumable: bool) -> bool:
        session = self.current
        if session is None or session.socket is None:
            return False
        self.counters.invalid_sessions += 1
        if not resumable:
            self.sessions.pop(session.id, None)
        await self._send(session.socket, {"op": INVALID_SESSION, "d": resumable})
        return True

    async def shutdown(self) -> None:
        for socket in list(self.sockets):
            with contextlib.suppress(Exception):
                await socket.close(code=1001)

    # -- the socket ---------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(timeout=2.0, max_msg_size=0)
        await socket.prepare(request)
        self.sockets.add(socket)
        try:
            await self._send(
                socket, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
            )
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                try:
                    payload = json.loads(message.data)
                except ValueError:
                    await socket.close(code=4002)  # Discord: decode error
                    break
                await self._receive(socket, payload)
        finally:
            self.sockets.discard(socket)
            for session in self.sessions.values():
                if session.socket is socket:
                    session.socket = None
            self._fall_back()
            await self._notify()
        return socket

    def _fall_back(self) -> None:
        """When the latest session has no socket, the latest one still connected (another
        process with the same token) takes the dispatches; a RESUME makes its own current."""
        if self.connected:
            return
        live = [s for s in self.sessions.values() if s.socket is not None and not s.socket.closed]
        if live:
            self.current = live[-1]

    async def _receive(self, socket: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == HEARTBEAT:
            self.counters.heartbeats += 1
            await self._send(socket, {"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(socket, data if isinstance(data, dict) else {})
        elif op == RESUME:
            await self._resume(socket, data if isinstance(data, dict) else {})
        # Presence, voice and member-chunk requests are accepted and ignored.

    def _token_ok(self, token: object) -> bool:
        if not isinstance(token, str):
            return False
        return token.removeprefix("Bot ") == self.world.token

    async def _identify(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.counters.identifies += 1
        if not self._token_ok(data.get("token")):
            self.counters.closes.append(AUTHENTICATION_FAILED)
            await socket.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        session = Session(id=secrets.token_hex(16), socket=socket)
        self.sessions[session.id] = session
        self.current = session
        world = self.world
        ready = {
            "v": 10,
            "user": shapes.user(world.user(world.bot_user_id)),
            "guilds": [{"id": str(world.guild_id), "unavailable": True}],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "shard": [0, 1],
            "application": {"id": str(world.bot_user_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        self.counters.readies += 1
        await self._dispatch_to(session, "READY", ready)
        await self._dispatch_to(session, "GUILD_CREATE", shapes.guild(world, gateway=True))
        await self._notify()

    async def _resume(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.counters.resumes += 1
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not self._token_ok(data.get("token")):
            self.counters.invalid_sessions += 1
            await self._send(socket, {"op": INVALID_SESSION, "d": False})
            return
        seen = data.get("seq")
        after = seen if isinstance(seen, int) else 0
        session.socket = socket
        self.current = session
        for frame in session.sent:
            if frame["s"] > after:
                await self._send(socket, frame)
        self.counters.resumed += 1
        await self._dispatch_to(session, "RESUMED", {})
        await self._notify()
