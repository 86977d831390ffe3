"""The alert supervisor: delivers the API's durable failure alerts to the job_alerts channel.

Every `alert_poll_seconds` it asks the API for due alerts (the API first reconciles held jobs
into alert records) and, for each, through the Discord port:
- sends the job's one main card when none is recorded, edits it when the record's desired
  version is ahead of the rendered one, and sends it again (unless the job is finished) only
  when an edit found it deleted (NotFound) or left in an earlier alert channel that refuses the
  bot; a channel it cannot read or write proves nothing and is retried later;
- sends one reply mentioning the recipient for the current failure episode.
Each send is bound through the API intent first: the intent is recorded before the send and the
id after. An intent without an id (a lost reply, a crash, a supervisor that stopped) is looked
for by its fingerprint in the channel's recent history and adopted when found; only history that
was read and does not hold it lets a replacement be sent. A send the port refused for sure (a
`PortError` such as Forbidden, NotFound or NotSent, or a rate limit: nothing was sent) is
remembered by its intent, so the next pass replaces that intent without reading history. Another
supervisor's fresh intent is left alone for `alert_lease_seconds`, so overlapping processes do
not both send.

Nothing here enqueues. What a failure stops:
- any failed Discord request (every exception the port raises, except the NotFound of an edit,
  which means the card was deleted, and a refused edit of a card left in an earlier alert
  channel), and the API being unreachable, rate limited or refusing
  the bot's key, stop the whole pass: the supervisor waits twice the poll interval, then four
  times, ... up to MAX_BACKOFF (at least a rate limit's `retry_after`), logs the first failure
  once as a warning with its reason and the recovery once delivery works again. These failures
  are not about one alert, so trying the next alert would only repeat the request. An
  unavailable API is a warning only when the supervisor had reached it and it stays unavailable
  for longer than one poll interval (the pass after the first failed one fails too): an API not
  up yet when the bot starts, or gone a moment before the bot while a stack stops, is logged
  at INFO;
- any other failure while delivering one alert (the API refusing that alert's request with an
  error status, an answer that does not parse, a checkpoint failing) is about that alert's
  data: it is logged and that alert alone is held back on the same doubling schedule, while the
  other alerts are delivered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID, uuid4

import msgspec
from genji_sdk import ClaimToken, JobContext
from genji_sdk.alerts import AlertCard, AlertWork, CardBinding, ReplyBinding
from genji_sdk.failures import ConfigurationFailure, DependencyUnavailable, RateLimited
from genji_worker.errors import redact

from genji_bot.alerts.cards import card, reply
from genji_bot.api import ApiClient, ApiError
from genji_bot.effects.checkpoints import Checkpoints, NoCheckpoints
from genji_bot.effects.port import Channel, DiscordPort, NotFound, Outgoing, PortError, Sent
from genji_bot.settings import BotSettings

log = logging.getLogger("genji.alerts")

ALERTS = "/internal/alerts"
# Observers (the recorder) see each delivery as an effect of the alerted job under this name.
ALERT_EVENT = "job.alert"
CARD_EFFECT = "alert-card"
EDIT_EFFECT = "alert-card-edit"
REPLY_EFFECT = "alert-reply"
CLOCK_SKEW = timedelta(seconds=5)
MAX_BACKOFF = 300.0
FINISHED = frozenset({"succeeded", "discarded"})
REASON_LIMIT = 300

B = TypeVar("B", CardBinding, ReplyBinding)
T = TypeVar("T")


class DiscordFailed(Exception):
    """A request to Discord failed: the pass stops and the supervisor backs off."""

    def __init__(self, operation: str, error: Exception) -> None:
        super().__init__(f"Discord {operation} failed: {reason(error)}")
        self.operation = operation
        self.error = error

    @property
    def nothing_sent(self) -> bool:
        """The port's contract: a PortError or a rate limit means the request did nothing; any
        other failure of a send leaves its outcome unknown."""
        return isinstance(self.error, (PortError, RateLimited))


def reason(error: BaseException) -> str:
    """The failure as an operator reads it: its kind and Discord's status, code and message when
    the exception (or the discord.py error it was raised from) carries them; redacted, bounded."""
    text = f"{type(error).__name__}: {error}"
    for source in (error, error.__cause__):
        status = getattr(source, "status", None)
        if isinstance(status, int):
            code = getattr(source, "code", None)
            message = getattr(source, "text", None)
            text = f"{type(error).__name__} (HTTP {status}"
            text += f", code {code}" if code else ""
            text += f"): {message}" if message else ")"
            break
    text = redact(" ".join(text.split()))
    return text if len(text) <= REASON_LIMIT else text[: REASON_LIMIT - 1] + "\u2026"


def backoff(poll: float, failures: int) -> float:
    """The wait after `failures` failures in a row: twice the poll interval, then four times,
    ... up to MAX_BACKOFF (or the poll interval itself, when that is longer)."""
    return float(min(poll * 2 ** min(failures, 8), max(MAX_BACKOFF, poll)))


class AlertSupervisor:
    def __init__(
        self,
        api: ApiClient,
        port: DiscordPort,
        settings: BotSettings,
        checkpoints: Checkpoints | None = None,
    ) -> None:
        self.api = api
        self.port = port
        self.settings = settings
        self.checkpoints = checkpoints or NoCheckpoints()
        # This instance, as the holder of the intents it records.
        self.holder = uuid4()
        self.started = datetime.now(UTC)
        self._failures = 0
        # Whether a poll of the API ever succeeded, since when it has been unavailable (loop
        # time), and whether the current run of failures was already warned about.
        self._reached_api = False
        self._api_down_since: float | None = None
        self._warned = False
        # Alerts held back after a failure of their own: job -> (failures in a row, not before).
        self._held_back: dict[UUID, tuple[int, float]] = {}
        # Intents whose send Discord refused for sure, by binding path: nothing to look for.
        self._unsent: dict[str, datetime] = {}

    @property
    def channel(self) -> int:
        return self.settings.channels.job_alerts

    # -- the loop ----------------------------------------------------------------------------
    async def run(self) -> None:
        """Deliver alerts until cancelled."""
        while True:
            delay = self.settings.alert_poll_seconds
            try:
                await self.deliver_due()
            except (
                DiscordFailed,
                DependencyUnavailable,
                RateLimited,
                ConfigurationFailure,
                ApiError,
            ) as error:
                delay = self._backing_off(error)
            else:
                if self._failures:
                    log.info("alert delivery recovered after %d failed passes", self._failures)
                self._failures = 0
                self._warned = False
            await asyncio.sleep(delay)

    def _backing_off(self, error: Exception) -> float:
        self._failures += 1
        delay = backoff(self.settings.alert_poll_seconds, self._failures)
        cause = error.error if isinstance(error, DiscordFailed) else error
        if isinstance(cause, RateLimited):
            delay = max(delay, float(cause.retry_after))
        if isinstance(error, DependencyUnavailable) and error.dependency == "api":
            self._api_unavailable(error, delay)
        elif not self._warned:
            self._warned = True
            log.warning(
                "alert delivery paused: %s; trying again in %.1fs, waiting longer each time it "
                "fails; progress stays recorded",
                error,
                delay,
            )
        else:
            log.debug("alert delivery still failing (%d): %s", self._failures, error)
        return delay

    def _api_unavailable(self, error: DependencyUnavailable, delay: float) -> None:
        now = asyncio.get_running_loop().time()
        if self._api_down_since is None:
            self._api_down_since = now
        down = now - self._api_down_since
        if not self._reached_api:
            level = logging.INFO if self._failures == 1 else logging.DEBUG
            log.log(
                level, "alert delivery waits for the api: %s; trying again in %.1fs", error, delay
            )
        elif not self._warned and down > self.settings.alert_poll_seconds:
            self._warned = True
            log.warning(
                "alert delivery paused: %s for %.1fs; trying again in %.1fs, waiting longer "
                "each time it fails; progress stays recorded",
                error,
                down,
                delay,
            )
        elif self._failures == 1:
            log.info("alert delivery paused: %s; trying again in %.1fs", error, delay)
        else:
            log.debug("alert delivery still failing (%d): %s", self._failures, error)

    async def deliver_due(self) -> int:
        """One pass: every due alert; returns how many were due. A failed Discord request or
        an unavailable API propagates (the pass stops and backs off); any other failure holds
        back that alert alone."""
        work = msgspec.convert(await self.api.get(ALERTS), AlertWork)
        self._reached_api = True
        self._api_down_since = None
        due = {alert.job_id for alert in work.alerts}
        self._held_back = {job: held for job, held in self._held_back.items() if job in due}
        clock = asyncio.get_running_loop().time
        for alert in work.alerts:
            failures, not_before = self._held_back.get(alert.job_id, (0, 0.0))
            if clock() < not_before:
                continue
            try:
                await self._deliver(alert)
            except (DiscordFailed, DependencyUnavailable, RateLimited, ConfigurationFailure):
                raise
            except Exception:
                failures += 1
                wait = backoff(self.settings.alert_poll_seconds, failures)
                self._held_back[alert.job_id] = (failures, clock() + wait)
                log.exception(
                    "alert of job %s was not delivered; trying it again in %.1fs",
                    alert.job_id,
                    wait,
                )
            else:
                self._held_back.pop(alert.job_id, None)
        return len(work.alerts)

    async def _deliver(self, alert: AlertCard) -> None:
        if alert.message_id is None:
            if alert.state not in FINISHED:
                await self._send_card(alert)
        elif alert.rendered_version < alert.desired_version:
            await self._edit_card(alert)
        if alert.episode is not None and not alert.episode.notified:
            await self._send_reply(alert, alert.episode.retry_generation)

    # -- the card ----------------------------------------------------------------------------
    async def _send_card(self, alert: AlertCard) -> None:
        path = f"{ALERTS}/{alert.job_id}/card"
        message = card(alert)

        async def begin(replaces: datetime | None) -> CardBinding:
            body = {
                "holder": str(self.holder),
                "version": alert.desired_version,
                "fingerprint": message.fingerprint(),
                "guild_id": self.settings.guild_id,
                "channel_id": self.channel,
                "lease_seconds": self.settings.alert_lease_seconds,
                "replaces": replaces.isoformat() if replaces else None,
            }
            return await self._post(path, body, CardBinding)

        async def complete(sent: Sent, binding: CardBinding | None) -> CardBinding:
            version = alert.desired_version if binding is None else binding.intent_version
            body = {
                "channel_id": sent.channel_id,
                "message_id": sent.message_id,
                "version": version,
            }
            return await self._post(f"{path}/complete", body, CardBinding)

        await self._deliver_once(alert, CARD_EFFECT, path, message, begin, complete)

    async def _edit_card(self, alert: AlertCard) -> None:
        assert alert.message_id is not None
        context = self._context(alert)
        await self.checkpoints.reached(context, EDIT_EFFECT, "before")
        channel = alert.channel_id or self.channel
        try:
            await self._discord(
                f"edit of card {alert.message_id} in channel {channel}",
                self.port.edit(channel, alert.message_id, card(alert)),
            )
        except DiscordFailed as failed:
            # A card left in a channel that is no longer the alert channel, which Discord now
            # refuses the bot, is sent again where alerts go: left to fail, it would stop
            # every pass at it.
            left_behind = channel != self.channel and isinstance(failed.error, PortError)
            if not (isinstance(failed.error, NotFound) or left_behind):
                raise
            # A finished job's card is not sent again, as a card is never first sent for one.
            finished = alert.state in FINISHED
            log.warning(
                "the alert card of job %s was %s; %s",
                alert.job_id,
                f"left in channel {channel}: {reason(failed.error)}" if left_behind else "deleted",
                "its job is finished, so it is not sent again" if finished else "sending it again",
            )
            await self._post(
                f"{ALERTS}/{alert.job_id}/card/gone", {"message_id": alert.message_id}, CardBinding
            )
            if not finished:
                await self._send_card(alert)
            return
        await self._post(
            f"{ALERTS}/{alert.job_id}/card/rendered",
            {"message_id": alert.message_id, "version": alert.desired_version},
            CardBinding,
        )
        await self.checkpoints.reached(context, EDIT_EFFECT, "after")

    # -- the reply ---------------------------------------------------------------------------
    async def _send_reply(self, alert: AlertCard, generation: int) -> None:
        path = f"{ALERTS}/{alert.job_id}/episodes/{generation}/reply"
        message = reply(alert, generation, self.settings.alert_recipient_id)

        async def begin(replaces: datetime | None) -> ReplyBinding:
            body = {
                "holder": str(self.holder),
                "fingerprint": message.fingerprint(),
                "channel_id": self.channel,
                "lease_seconds": self.settings.alert_lease_seconds,
                "replaces": replaces.isoformat() if replaces else None,
            }
            return await self._post(path, body, ReplyBinding)

        async def complete(sent: Sent, binding: ReplyBinding | None) -> ReplyBinding:
            body = {"channel_id": sent.channel_id, "message_id": sent.message_id}
            return await self._post(f"{path}/complete", body, ReplyBinding)

        effect = f"{REPLY_EFFECT}:{generation}"
        await self._deliver_once(alert, effect, path, message, begin, complete)

    # -- one bound send ----------------------------------------------------------------------
    async def _deliver_once(
        self,
        alert: AlertCard,
        effect: str,
        path: str,
        message: Outgoing,
        begin: Callable[[datetime | None], Awaitable[B]],
        complete: Callable[[Sent, B | None], Awaitable[B]],
    ) -> None:
        """Send `message` unless its recorded intent says otherwise: completed and busy are
        left alone; an intent without an id is found in history or replaced (at once when this
        supervisor knows its send was refused)."""
        binding = await begin(None)
        if binding.decision == "reconcile":
            assert binding.intent_at is not None and binding.intent_fingerprint is not None
            if self._unsent.get(path) == binding.intent_at:
                found = None  # this supervisor's own send of it was refused: nothing was sent
            else:
                found = await self._find(binding.intent_fingerprint, binding.intent_at)
            if found is not None:
                log.info("job %s: %s found in the channel, not sent again", alert.job_id, effect)
                await complete(found, binding)
                return
            binding = await begin(binding.intent_at)
        self._unsent.pop(path, None)
        if binding.decision != "fresh":
            return
        context = self._context(alert)
        await self.checkpoints.reached(context, effect, "before")
        try:
            sent = await self._discord(
                f"send to channel {self.channel}", self.port.send(Channel(self.channel), message)
            )
        except DiscordFailed as failed:
            # The intent stays. Refused for sure: the next pass replaces it without looking.
            # Otherwise the message may have been sent: the next pass looks for it first.
            if failed.nothing_sent and binding.intent_at is not None:
                self._unsent[path] = binding.intent_at
            raise
        recorded = await complete(sent, None)
        if recorded.message_id != sent.message_id:
            log.warning(
                "job %s: %s was already recorded; deleting the duplicate", alert.job_id, effect
            )
            await self._discord(
                f"delete of message {sent.message_id} in channel {sent.channel_id}",
                self.port.delete(sent.channel_id, sent.message_id),
            )
        await self.checkpoints.reached(context, effect, "after")

    async def _find(self, fingerprint: str, since: datetime) -> Sent | None:
        """The earliest of the bot's messages in the channel with this fingerprint since the
        intent; None only when the history was read and holds none (a failed read raises)."""
        seen = await self._discord(
            f"history read of channel {self.channel}",
            self.port.recent(Channel(self.channel), since - CLOCK_SKEW),
        )
        matches = sorted(
            (item for item in seen if item.fingerprint == fingerprint),
            key=lambda item: item.created_at,
        )
        return matches[0].sent if matches else None

    # -- plumbing ----------------------------------------------------------------------------
    async def _discord(self, operation: str, request: Awaitable[T]) -> T:
        """A request through the Discord port; any failure of it is a DiscordFailed."""
        try:
            return await request
        except Exception as error:
            raise DiscordFailed(operation, error) from error

    async def _post(self, path: str, body: dict[str, Any], kind: type[B]) -> B:
        return msgspec.convert(await self.api.request("POST", path, json=body), kind)

    def _context(self, alert: AlertCard) -> JobContext:
        """How checkpoints see a delivery: an effect of the alerted job, whose claim names this
        supervisor instance (alerts hold no queue claim)."""
        return JobContext(
            job_id=alert.job_id,
            event_name=ALERT_EVENT,
            event_key=f"alert:{alert.job_id}",
            attempt=1,
            retry_generation=alert.retry_generation,
            claim=ClaimToken(0, self.holder, self.started),
        )


def _supervisor_ended(task: asyncio.Task[None]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    log.critical("the alert supervisor died: %r; stopping the process", error)
    os.kill(os.getpid(), signal.SIGTERM)


def start_alerts(supervisor: AlertSupervisor) -> asyncio.Task[None]:
    """Run the supervisor as a task; its unexpected end stops the process (SIGTERM drains the
    queue worker), so a bot never runs without alert delivery."""
    task = asyncio.create_task(supervisor.run(), name="job-alerts")
    task.add_done_callback(_supervisor_ended)
    return task


@contextlib.asynccontextmanager
async def alerts_running(supervisor: AlertSupervisor) -> AsyncIterator[asyncio.Task[None]]:
    """The supervisor beside a block (the queue worker), cancelled when the block ends."""
    task = start_alerts(supervisor)
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
