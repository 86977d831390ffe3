"""The fault injector: each fault class a configured number of times, in an order and with
pauses drawn from the soak's seeded random generator, one fault at a time. After each fault
the injector waits (with a deadline) until the stack serves again: the API answers and every
worker process has registered; a fault after which it does not is not survived.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import httpx

from genji_devstack.soak.stack import CONNECTION_ERRORS, STALE_HEARTBEAT_SECONDS, Child, SoakStack

SEND_EFFECTS = ("announcement", "card", "delivery", "forward", "message", "notice", "thread")
# The API effects (names before the first ':') whose replay, without its receipt, would add a
# row the duplicate checks see: a notification, a newsfeed entry, an XP grant, a lootbox key.
RECEIPT_EFFECTS = ("notification", "newsfeed", "xp", "keys")
HEALTH_DEADLINE = 60.0
MID_HANDLER_WAIT = 3.0
RECEIPT_WINDOW_WAIT = 10.0

BOT_KILL = "bot-sigkill"
BOT_CRASH_MID_SEND = "bot-crash-mid-send"
API_KILL = "api-sigkill"
API_OUTAGE = "api-outage"
BACKEND_TERMINATE = "backend-terminate"
POSTMASTER_KILL = "postmaster-sigkill"
OVERLAPPING_BOTS = "overlapping-bots"
LOST_SEND_REPLY = "lost-send-reply"
RECEIPT_WINDOW = "receipt-window"
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
)


@dataclass
class Injection:
    fault: str
    started: float
    ended: float = 0.0
    survived: bool = False
    note: str = ""


@dataclass
class Injector:
    stack: SoakStack
    rng: random.Random
    per_class: int
    duration: float
    hold: float = 1.0
    """Scales how long a lasting fault (outage, overlap, lost replies) lasts."""
    nudge: Callable[[], Coroutine[Any, Any, None]] | None = None
    """Submits one XP grant (the workload's), for the receipt window to meet."""
    injections: list[Injection] = field(default_factory=list)

    def plan(self) -> list[str]:
        faults = [fault for fault in CLASSES for _ in range(self.per_class)]
        self.rng.shuffle(faults)
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
                if await self.stack.api_ready(client) and await self._all_registered():
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

    async def _bot_crash_mid_send(self, injection: Injection) -> None:
        """The recorder delivers the bot's next send, then SIGKILLs the bot before it records
        the message id: the replay must reconcile the send from the channel or hold the job."""
        bot = self.rng.choice(self.stack.bots)
        bot.down = True  # its own death is this fault's: the soak's supervisor leaves it
        recorder = self.stack.recorder()
        for name in SEND_EFFECTS:
            recorder.command(f"*:{name}", "crash-mid", pid=bot.pid)
        end = time.monotonic() + 10 * self.hold
        while bot.alive() and time.monotonic() < end:  # noqa: ASYNC110 (another process)
            await asyncio.sleep(0.05)
        for name in SEND_EFFECTS:
            recorder.command(f"*:{name}", "complete", pid=bot.pid)
        injection.note = "mid-send" if not bot.alive() else "no send in time: killed"
        bot.kill()
        bot.start()

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

    async def _lost_send_reply(self, injection: Injection) -> None:
        """For a while every send's first attempt is delivered and its reply lost."""
        recorder = self.stack.recorder()
        before = len(recorder.sends())
        for name in SEND_EFFECTS:
            recorder.command(f"*:{name}", "lose-reply:1")
        await asyncio.sleep(self.hold * self.rng.uniform(2.0, 5.0))
        for name in SEND_EFFECTS:
            recorder.command(f"*:{name}", "complete")
        injection.note = f"{len(recorder.sends()) - before} sends"

    async def _receipt_window(self, injection: Injection) -> None:
        """The recorder SIGKILLs a bot as soon as an API effect it requested has answered: the
        effect and its receipt committed, the job's completion did not. The job is reclaimed
        once its heartbeat is stale and replayed, and the replay must get the recorded result
        instead of applying the effect again. Every bot is armed, and one XP grant is submitted
        so that a job surely reaches such an effect (its first is the grant's notification)."""
        bots = list(self.stack.bots)
        victims = {bot.pid: bot for bot in bots}
        for bot in bots:
            bot.down = True  # a death now is this fault's: the soak's supervisor leaves it
        recorder = self.stack.recorder()
        for pid in victims:
            for name in RECEIPT_EFFECTS:
                recorder.command(f"*:{name}", "crash-after", pid=pid)
        nudge = asyncio.create_task(self.nudge()) if self.nudge is not None else None
        end = time.monotonic() + RECEIPT_WINDOW_WAIT
        while all(b.alive() for b in bots) and time.monotonic() < end:  # noqa: ASYNC110 (processes)
            await asyncio.sleep(0.05)
        for pid in victims:
            for name in RECEIPT_EFFECTS:
                recorder.command(f"*:{name}", "complete", pid=pid)
        if nudge is not None:
            await nudge
        dead = [pid for pid, bot in victims.items() if not bot.alive()]
        done = [
            e["effect"].split(":", 1)[0]
            for e in recorder.recorder.events()
            if e["pid"] in dead
            and e.get("stage") == "done"
            and e["effect"].split(":", 1)[0] in RECEIPT_EFFECTS
        ]
        injection.note = f"after-{done[-1]}" if done else "no effect in time"
        for bot in bots:
            if bot.alive():
                bot.down = False
            else:
                bot.start()
