"""The alert supervisor backs off on every failed Discord request: a job_alerts channel that
refuses the bot is asked on the doubling schedule, not every poll, the pause and the recovery
are logged once, and delivery resumes, once, when the channel is back."""

from __future__ import annotations

import logging
import math
import time
from datetime import datetime, timedelta
from itertools import pairwise
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import discord
import httpx
import pytest
from genji_bot.alerts.supervisor import MAX_BACKOFF, backoff, reason
from genji_bot.effects.port import Forbidden

from tests.bot.bot_stack import BotStack, eventually
from tests.support import seed_alerts as sa

from . import alert_flow as af

pytestmark = pytest.mark.queue

POLL = 0.05
WINDOW = 2.0


def _at(entry: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(entry["at"])


def test_the_schedule_doubles_from_the_poll_interval_up_to_the_cap() -> None:
    assert [backoff(POLL, n) for n in (1, 2, 3)] == [2 * POLL, 4 * POLL, 8 * POLL]
    assert backoff(15, 20) == MAX_BACKOFF
    assert backoff(600, 1) == 600  # a poll longer than the cap is never shortened


def test_the_logged_reason_is_discords_own_status_code_and_message() -> None:
    response = SimpleNamespace(status=403, reason="Forbidden")
    refused = discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})
    try:
        raise Forbidden("Discord refused: Missing Access") from refused
    except Forbidden as error:
        text = reason(error)
    assert text == "Forbidden (HTTP 403, code 50001): Missing Access"


async def test_a_refusing_alerts_channel_is_asked_on_the_backoff_schedule_then_delivered(
    stack: BotStack, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="genji.alerts")
    job = await sa.held(stack.owner, sa.BOT_EVENT, "channel-refuses")
    stack.recorder.command(af.alerts_destination(stack), "forbidden")
    window = timedelta(seconds=WINDOW)

    def past_the_window() -> bool:
        seen = af.refusals(stack)
        return bool(seen) and _at(seen[-1]) - _at(seen[0]) > window

    async with af.running(af.supervisor(stack, alert_poll_seconds=POLL)):

        async def probe() -> bool:
            return past_the_window()

        # An attempt after the window closes it; only the refused requests are counted.
        await eventually(probe, 30, "a refused request after the window")
        seen = af.refusals(stack)
        within = [e for e in seen if _at(e) - _at(seen[0]) <= window]
        # Attempt n (from 1) comes at least (2 + 4 + ... + 2**(n-1)) polls after the first:
        # (2**n - 2) * POLL, so at most floor(log2(WINDOW / POLL + 2)) fit in the window,
        # where polling every POLL would make about WINDOW / POLL = 40.
        bound = math.floor(math.log2(WINDOW / POLL + 2))
        assert 3 <= len(within) <= bound, [e["at"] for e in seen]
        gaps = [(_at(b) - _at(a)).total_seconds() for a, b in pairwise(seen)]
        for n, gap in enumerate(gaps, start=1):
            assert gap >= backoff(POLL, n) - 0.001, gaps
        # The card's intent was refused for sure: each later pass replaces it without reading
        # the channel's history (one request per pass: the send).
        assert {e["operation"] for e in seen} == {"send"}
        assert af.card_sends(stack, job) == []

        stack.recorder.command(af.alerts_destination(stack), "complete")
        await af.until_notified(stack, job)
        record = await af.until_rendered(stack, job)

        # The pass that delivered logs its recovery once it returns, after the rendering.
        async def recovered_logged() -> bool:
            return any("alert delivery recovered" in r.getMessage() for r in caplog.records)

        await eventually(recovered_logged, 10, "the recovery to be logged")

    [card] = af.card_sends(stack, job)
    assert record["message_id"] == card["message_id"]
    assert len(af.reply_sends(stack, job)) == 1
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    paused = [r.getMessage() for r in warnings if "alert delivery paused" in r.getMessage()]
    assert len(paused) == 1 and "Forbidden" in paused[0], paused
    assert f"send to channel {stack.settings.channels.job_alerts}" in paused[0]
    recovered = [r for r in caplog.records if "alert delivery recovered" in r.getMessage()]
    assert len(recovered) == 1


class _RefusesOneCard(httpx.AsyncBaseTransport):
    """The API's network path, where the API refuses one alert's card intent (422)."""

    def __init__(self, job_id: UUID) -> None:
        self.path = f"/api/v3/internal/alerts/{job_id}/card"
        self.refused: list[float] = []
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == self.path:
            self.refused.append(time.monotonic())
            return httpx.Response(422, json={"error": "refused for this alert"})
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def test_an_alert_the_api_refuses_is_held_back_alone_and_the_others_are_delivered(
    stack: BotStack,
) -> None:
    refused_job = await sa.held(stack.owner, sa.BOT_EVENT, "api-refuses-this-card")
    other_job = await sa.held(stack.owner, sa.BOT_EVENT, "deliverable-card")
    api = _RefusesOneCard(refused_job)
    async with af.running(af.supervisor(stack, transport=api, alert_poll_seconds=POLL)):
        await af.until_notified(stack, other_job)
        await af.until_rendered(stack, other_job)

        async def asked_four_times() -> bool:
            return len(api.refused) >= 4

        await eventually(asked_four_times, 30, "the refused card asked again")
    gaps = [b - a for a, b in pairwise(api.refused)]
    for n, gap in enumerate(gaps, start=1):
        assert gap >= backoff(POLL, n) - 0.001, gaps
    assert af.card_sends(stack, refused_job) == []
    assert af.refusals(stack) == []
    assert len(af.card_sends(stack, other_job)) == 1
    assert len(af.reply_sends(stack, other_job)) == 1
