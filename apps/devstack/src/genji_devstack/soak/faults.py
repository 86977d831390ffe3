"""The fault injector: each fault class a configured number of times, in an order and with
pauses drawn from the soak's seeded random generator, one fault at a time. After each fault
the injector waits (with a deadline) until the stack serves again: the API answers, every
worker process has registered and the stand-in of Discord has a connected gateway session; a
fault after which it does not is not survived.

Faults of Discord (errors, rate limits, lost replies, frozen requests, refused channels,
gateway closes) are set at the stand-in through its control API; a bot killed inside a send is
killed while the stand-in holds that send frozen.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import httpx

from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.soak.stack import CONNECTION_ERRORS, STALE_HEARTBEAT_SECONDS, Child, SoakStack

SEND = "POST /channels/{channel_id}/messages"
# The API effects (names before the first ':') whose replay, without its receipt, would add a
# row the duplicate checks see: a notification, a newsfeed entry, an XP grant, a lootbox key.
RECEIPT_EFFECTS = ("notification", "newsfeed", "xp", "keys")
HEALTH_DEADLINE = 60.0
MID_HANDLER_WAIT = 3.0
# Long enough for the nudged XP grant to reach its post while another fault (a database
# restart, a bot killed) delays it: the window is looked for, not waited out.
RECEIPT_WINDOW_WAIT = 30.0
FROZEN_WAIT = 10.0
GATEWAY_WAIT = 15.0
# discord.py waits out a 429 up to the bot's MAX_RATELIMIT_WAIT (30 s) itself; a longer one
# surfaces as RateLimited and defers the job.
LONG_RETRY_AFTER = 30.5
SERVER_ERRORS = (500, 502, 503)
# A fault of Discord stays armed for its drawn time and then until it met a send, at most this.
ARMED_MAX = 10.0
XP = "xp-grant"
NEWSFEED = "newsfeed"
# The binding a frozen send belongs to: still intended a moment after the freeze held it, and
# the worker (so the process) whose claim began it.
FROZEN_SEND_SQL = """
    SELECT b.job_id, b.effect_key, w.pid
    FROM effect_bindings b
    JOIN queue_workers w ON w.manager_id = (b.detail -> 'intended_by' ->> 'manager')::uuid
    WHERE b.state = 'intended' AND ($1::text IS NULL OR b.destination = $1)
      AND b.updated_at < now() - interval '200 milliseconds'
    ORDER BY b.updated_at DESC LIMIT 1
"""
RECEIPT_SQL = """
    SELECT effect_key FROM effect_receipts
    WHERE job_id = $1 AND completed_at IS NOT NULL
      AND split_part(effect_key, ':', 1) = ANY($2::text[])
    ORDER BY completed_at DESC LIMIT 1
"""

BOT_KILL = "bot-sigkill"
BOT_CRASH_MID_SEND = "bot-crash-mid-send"
API_KILL = "api-sigkill"
API_OUTAGE = "api-outage"
BACKEND_TERMINATE = "backend-terminate"
POSTMASTER_KILL = "postmaster-sigkill"
OVERLAPPING_BOTS = "overlapping-bots"
LOST_SEND_REPLY = "lost-send-reply"
RECEIPT_WINDOW = "receipt-window"
DISCORD_5XX = "discord-5xx"
DISCORD_429 = "discord-429"
DISCORD_403 = "discord-403"
GATEWAY_CLOSE = "gateway-close"
CLASSES = (
    BOT_KILL,
    BOT_CRASH_MID_SEND,
    API_KILL,
    API_OUTAGE,
    BACKEND_TERMINATE,
    POSTMASTER_KILL,
    OVERLAPPING_BOTS,
    LOST_SEND_REPLY,
    RECEIPT_WINDOW,
    DISCORD_5XX,
    DISCORD_429,
    DISCORD_403,
    GATEWAY_CLOSE,
)
LASTING = frozenset({DISCORD_429})


@dataclass
class Injection:
    fault: str
    started: float
    ended: float = 0.0
    survived: bool = False
    note: str = ""
    windows: list[tuple[float, float]] = field(default_factory=list)
    """Unix times while a fault of Discord was armed at the stand-in."""


@dataclass
class Injector:
    stack: SoakStack
    rng: random.Random
    per_class: int
    duration: float
    hold: float = 1.0
    """Scales how long a lasting fault (outage, overlap, lost replies) lasts."""
    nudge: Callable[[str], Coroutine[Any, Any, None]] | None = None
    """Submits one request of the named scenario (the workload's), so that a fault of Discord
    or the receipt window surely meets a send."""
    injections: list[Injection] = field(default_factory=list)

    def plan(self) -> list[str]:
        """Every class `per_class` times in a seeded order, with the faults whose effect
        outlasts them (a job a long rate limit defers by 30.5 s) in the first half: their wait
        overlaps the faults after them instead of lengthening the settle."""
        faults = [fault for fault in CLASSES for _ in range(self.per_class)]
        self.rng.shuffle(faults)
        half = len(faults) // 2
        for index in range(half, len(faults)):
            if faults[index] in LASTING:
                early = [i for i in range(half) if faults[i] not in LASTING]
                if early:
                    swap = self.rng.choice(early)
                    faults[index], faults[swap] = faults[swap], faults[index]
        return faults

    async def run(self) -> None:
        plan = self.plan()
        start = time.monotonic()
        gap = self.duration / max(1, len(plan))
        actions: dict[str, Callable[[Injection], Awaitable[None]]] = {
            BOT_KILL: self._bot_kill,
            BOT_CRASH_MID_SEND: self._bot_crash_mid_send,
            API_KILL: self._api_kill,
            API_OUTAGE: self._api_outage,
            BACKEND_TERMINATE: self._backend_terminate,
            POSTMASTER_KILL: self._postmaster_kill,
            OVERLAPPING_BOTS: self._overlapping_bots,
            LOST_SEND_REPLY: self._lost_send_reply,
            RECEIPT_WINDOW: self._receipt_window,
            DISCORD_5XX: self._discord_5xx,
            DISCORD_429: self._discord_429,
            DISCORD_403: self._discord_403,
            GATEWAY_CLOSE: self._gateway_close,
        }
        for index, fault in enumerate(plan):
            due = start + index * gap + self.rng.uniform(0, gap / 2)
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            injection = Injection(fault, time.monotonic())
            self.injections.append(injection)
            await actions[fault](injection)
            injected = time.monotonic()
            injection.survived = await self.until_healthy()
            injection.ended = time.monotonic()
            print(
                f"[soak fault] {fault} {injection.note}: {injected - injection.started:.1f}s, "
                f"healthy again after {injection.ended - injected:.1f}s"
                + ("" if injection.survived else " (NOT SURVIVED)"),
                flush=True,
            )

    # -- health ---------------------------------------------------------------------------------
    async def until_healthy(self, deadline: float = HEALTH_DEADLINE) -> bool:
        """Until the API answers and each service's worker has registered (dead core
        services are started again first, as a process manager would)."""
        end = time.monotonic() + deadline
        async with httpx.AsyncClient() as client:
            while time.monotonic() < end:
                self.stack.restart_dead(including_down=True)
                if (
                    await self.stack.api_ready(client)
                    and await self._all_registered()
                    and await self._gateway_connected()
                ):
                    return True
                await asyncio.sleep(0.3)
        return False

    async def until_serving(self, deadline: float = HEALTH_DEADLINE) -> bool:
        """Until the API answers (the workers register while the first requests run)."""
        end = time.monotonic() + deadline
        async with httpx.AsyncClient() as client:
            while time.monotonic() < end:
                if await self.stack.api_ready(client):
                    return True
                await asyncio.sleep(0.2)
        return False

    async def _gateway_connected(self) -> bool:
        try:
            async with self.stack.control() as control:
                return bool((await control.gateway())["connected"])
        except httpx.HTTPError:
            return False

    async def _all_registered(self) -> bool:
        assert self.stack.api is not None
        try:
            conn = await self.stack.connect()
        except CONNECTION_ERRORS:
            return False
        try:
            if not await self.stack.registered(conn, self.stack.api, "api"):
                return False
            for bot in self.stack.bots:
                if not await self.stack.registered(conn, bot, "bot"):
                    return False
            return True
        finally:
            await conn.close()

    # -- helpers ------------------------------------------------------------------------------
    async def _busy_pid(self, owner: str) -> int | None:
        """The process of a worker of `owner` holding a picked job, within a short wait."""
        end = time.monotonic() + MID_HANDLER_WAIT
        try:
            conn = await self.stack.connect()
        except CONNECTION_ERRORS:
            return None
        try:
            while time.monotonic() < end:
                pid: int | None = await conn.fetchval(
                    "SELECT w.pid FROM pgqueuer q JOIN queue_workers w "
                    "ON w.manager_id = q.queue_manager_id "
                    "WHERE q.status = 'picked' AND w.owner = $1 ORDER BY random() LIMIT 1",
                    owner,
                )
                if pid is not None:
                    return pid
                await asyncio.sleep(0.05)
        finally:
            await conn.close()
        return None

    def _bot_with(self, pid: int | None) -> Child:
        for bot in self.stack.bots:
            if pid is not None and bot.alive() and bot.pid == pid:
                return bot
        return self.rng.choice(self.stack.bots)

    # -- the faults ---------------------------------------------------------------------------
    async def _bot_kill(self, injection: Injection) -> None:
        pid = await self._busy_pid("bot")
        bot = self._bot_with(pid)
        injection.note = "mid-handler" if pid == bot.pid else "idle"
        bot.kill()
        await asyncio.sleep(self.rng.uniform(0.2, 1.5))
        bot.start()

    async def _frozen_send(
        self, control: StandInControl, channel_id: int | None, within: float
    ) -> tuple[str, str, int] | None:
        """Freeze the next send (to `channel_id`, or any) at the stand-in and find the bound
        send it holds: (job id, effect, pid of the bot sending it). Faults stay armed."""
        destination = f"channel:{channel_id}" if channel_id is not None else None
        await control.add_fault(SEND, "freeze", channel_id=channel_id, times=1)
        end = time.monotonic() + within
        while time.monotonic() < end:
            if await control.frozen():
                await asyncio.sleep(0.3)
                try:
                    conn = await self.stack.connect()
                except CONNECTION_ERRORS:
                    continue
                try:
                    row = await conn.fetchrow(FROZEN_SEND_SQL, destination)
                finally:
                    await conn.close()
                if row is not None:
                    return str(row["job_id"]), row["effect_key"], row["pid"]
            await asyncio.sleep(0.05)
        return None

    async def _bot_crash_mid_send(self, injection: Injection) -> None:
        """The stand-in holds the next send frozen and the bot sending it is SIGKILLed; then the
        send is let through (Discord applies it, nobody hears the answer): the replay must
        settle it with its nonce or from the channel's history, or hold the job."""
        found: tuple[str, str, int] | None = None
        scenario = self.rng.choice((XP, NEWSFEED))
        nudge = asyncio.create_task(self.nudge(scenario)) if self.nudge is not None else None
        async with self.stack.control() as control:
            try:
                found = await self._frozen_send(control, None, 10 * self.hold)
            finally:
                bot = self._bot_with(found[2] if found else None)
                injection.note = "mid-send" if found and bot.pid == found[2] else "no send: killed"
                bot.kill()
                await control.clear_faults()
        bot.start()
        if nudge is not None:
            await nudge

    async def _api_kill(self, injection: Injection) -> None:
        assert self.stack.api is not None
        pid = await self._busy_pid("api")
        injection.note = "mid-handler" if pid is not None else "mid-request"
        self.stack.api.kill()
        await asyncio.sleep(self.rng.uniform(0.2, 1.0))
        self.stack.api.start()

    async def _api_outage(self, injection: Injection) -> None:
        """The API is unreachable for the bots for a while: frozen (requests hang, its worker's
        heartbeat stops) or stopped (connections refused), then back."""
        assert self.stack.api is not None
        pause = self.hold * self.rng.uniform(2.0, 2.0 + STALE_HEARTBEAT_SECONDS)
        if self.rng.random() < 0.5:
            injection.note = "frozen"
            self.stack.api.signal(signal.SIGSTOP)
            await asyncio.sleep(pause)
            self.stack.api.signal(signal.SIGCONT)
        else:
            injection.note = "stopped"
            await asyncio.to_thread(self.stack.api.stop)
            await asyncio.sleep(pause)
            self.stack.api.start()

    async def _backend_terminate(self, injection: Injection) -> None:
        conn = await self.stack.connect(superuser=True)
        try:
            ended = await conn.fetchval(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND backend_type = 'client backend' "
                "AND coalesce(application_name, '') <> 'genji-soak' AND random() < $1",
                self.rng.uniform(0.5, 1.0),
            )
        finally:
            await conn.close()
        injection.note = f"{ended} backends"

    async def _postmaster_kill(self, injection: Injection) -> None:
        await asyncio.to_thread(self.stack.cluster.kill9)
        await asyncio.sleep(self.rng.uniform(0.2, 1.0))
        await asyncio.to_thread(self.stack.cluster.start)

    async def _overlapping_bots(self, injection: Injection) -> None:
        """A second set of bot workers beside the first (a deploy's new set), then its end."""
        extra = self.stack.start_extra_bots(2)
        await asyncio.sleep(self.hold * self.rng.uniform(3.0, 6.0))
        for bot in extra:
            if self.rng.random() < 0.5:
                await asyncio.to_thread(bot.stop)
            else:
                bot.kill()
        self.stack.extra_bots = [b for b in self.stack.extra_bots if b not in extra]

    async def _while_armed(
        self, scenario: str, pause: float, met: Callable[[], Awaitable[bool]]
    ) -> None:
        """Keep a fault of Discord armed for `pause` seconds and past them until `met` (at
        most ARMED_MAX), while one submission of `scenario` makes a send to meet it."""
        nudge = asyncio.create_task(self.nudge(scenario)) if self.nudge is not None else None
        start = time.monotonic()
        while time.monotonic() - start < ARMED_MAX:
            if time.monotonic() - start >= pause and await met():
                break
            await asyncio.sleep(0.1)
        if nudge is not None:
            await nudge

    @staticmethod
    async def _fired(control: StandInControl) -> int:
        return sum(int(f["fired"]) for f in await control.faults())

    async def _lost_send_reply(self, injection: Injection) -> None:
        """For a while every send reaches Discord and its reply is lost (the connection drops
        after the message was stored): each must settle by repeating it with its nonce."""
        async with self.stack.control() as control:
            await control.add_fault(SEND, "lose-reply", times=None)
            started = time.time()
            pause = self.hold * self.rng.uniform(2.0, 5.0)
            scenario = self.rng.choice((XP, NEWSFEED))
            await self._while_armed(scenario, pause, lambda: self._met(control, 1))
            ended = time.time()
            fired = await self._fired(control)
            await control.clear_faults()
        injection.windows.append((started, ended))
        injection.note = f"{fired} replies lost"

    async def _receipt_window(self, injection: Injection) -> None:
        """A bot is SIGKILLed right after an API effect it requested committed: the stand-in
        freezes the next post to the XP channel (an XP grant posts there right after its
        notification effect) and, when the frozen send's job holds a completed receipt of a
        notification, newsfeed, XP or keys effect, its bot is killed. The effect and its
        receipt committed, the job's completion did not; the job is reclaimed once its heartbeat
        is stale and replayed, and the replay must get the recorded result instead of applying
        the effect again. One XP grant is submitted so that a job surely gets there."""
        xp_channel = self.stack.bot_settings().channels.xp
        nudge = asyncio.create_task(self.nudge(XP)) if self.nudge is not None else None
        end = time.monotonic() + RECEIPT_WINDOW_WAIT
        injection.note = "no effect in time"
        victim: Child | None = None
        async with self.stack.control() as control:
            try:
                while time.monotonic() < end and victim is None:
                    found = await self._frozen_send(
                        control, xp_channel, max(0.1, end - time.monotonic())
                    )
                    if found is None:
                        break
                    effect = await self._receipt_of(found[0])
                    bot = self._bot_with(found[2])
                    if effect is not None and bot.pid == found[2]:
                        injection.note = f"after-{effect.split(':', 1)[0]}"
                        victim = bot
                        bot.kill()
                    await control.clear_faults()
            finally:
                await control.clear_faults()
        if nudge is not None:
            await nudge
        if victim is not None:
            victim.start()

    async def _receipt_of(self, job_id: str) -> str | None:
        try:
            conn = await self.stack.connect()
        except CONNECTION_ERRORS:
            return None
        try:
            effect: str | None = await conn.fetchval(
                RECEIPT_SQL, uuid.UUID(job_id), list(RECEIPT_EFFECTS)
            )
        finally:
            await conn.close()
        return effect

    async def _discord_5xx(self, injection: Injection) -> None:
        """For a while Discord answers sends with a server error (nothing stored)."""
        status = self.rng.choice(SERVER_ERRORS)
        async with self.stack.control() as control:
            await control.add_fault(SEND, "status", status=status, times=None)
            started = time.time()
            pause = self.hold * self.rng.uniform(1.0, 3.0)
            scenario = self.rng.choice((XP, NEWSFEED))
            await self._while_armed(scenario, pause, lambda: self._met(control, 1))
            ended = time.time()
            fired = await self._fired(control)
            await control.clear_faults()
        injection.windows.append((started, ended))
        injection.note = f"{status} x{fired}"

    async def _discord_429(self, injection: Injection) -> None:
        """Rate limits on sends: short ones discord.py waits out, then one longer than the bot
        waits for, which defers its job (RateLimited)."""
        short = self.rng.randint(1, 3)
        async with self.stack.control() as control:
            await control.add_fault(
                SEND, "ratelimit", retry_after=round(self.rng.uniform(0.3, 2.0), 2), times=short
            )
            await control.add_fault(SEND, "ratelimit", retry_after=LONG_RETRY_AFTER, times=1)
            started = time.time()
            scenario = self.rng.choice((XP, NEWSFEED))
            await self._while_armed(scenario, 0.0, lambda: self._met(control, short + 1))
            ended = time.time()
            fired = await self._fired(control)
            await control.clear_faults()
        injection.windows.append((started, ended))
        injection.note = f"{min(fired, short)} short, {max(0, fired - short)} long"

    async def _discord_403(self, injection: Injection) -> None:
        """A channel the bot posts to refuses it (403 Missing Access) for a while: its sends
        are held as RefusedEffect, for the operator to allow the channel and retry."""
        channels = self.stack.bot_settings().channels
        scenario = self.rng.choice((XP, NEWSFEED))
        channel_id = channels.xp if scenario == XP else channels.newsfeed
        async with self.stack.control() as control:
            before = await self._refused(control)
            await control.deny_channel(channel_id, code=50001)
            started = time.time()
            pause = self.hold * self.rng.uniform(2.0, 5.0)

            async def refused() -> bool:
                return await self._refused(control) > before

            await self._while_armed(scenario, pause, refused)
            ended = time.time()
            await control.allow_channel(channel_id)
            refusals = await self._refused(control) - before
        injection.windows.append((started, ended))
        injection.note = f"{scenario} refused x{refusals}"

    async def _met(self, control: StandInControl, times: int) -> bool:
        return await self._fired(control) >= times

    @staticmethod
    async def _refused(control: StandInControl) -> int:
        """Requests the stand-in answered 403 so far."""
        requests = (await control.state())["requests"]
        return sum(int(by.get("403", 0)) for by in requests.values())

    async def _gateway_close(self, injection: Injection) -> None:
        """Discord ends the latest bot's gateway connection: a resumable close (4000) or a
        RECONNECT (op 7); the bot resumes its session and keeps working."""
        async with self.stack.control() as control:
            before = (await control.gateway())["resumed"]
            if self.rng.random() < 0.5:
                injection.note = "close-4000"
                done = await control.close_gateway(4000)
            else:
                injection.note = "op7-reconnect"
                done = await control.reconnect_gateway()
            if not done:
                injection.note = "no session"
                return
            end = time.monotonic() + GATEWAY_WAIT
            while time.monotonic() < end:
                state = await control.gateway()
                if state["connected"] and state["resumed"] > before:
                    return
                await asyncio.sleep(0.1)
            injection.note += ": not resumed"
