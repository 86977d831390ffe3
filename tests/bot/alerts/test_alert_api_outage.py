"""An API the alert supervisor never reached (the bot started first), or one gone for less than
a poll interval (a stack stopping), is logged at INFO; a reached API that stays unavailable past
one poll interval is warned about once, and delivery resumes when it is back."""

from __future__ import annotations

import logging

import httpx
import pytest

from tests.bot.bot_stack import BotStack, eventually

from . import alert_flow as af

pytestmark = pytest.mark.queue

FEED = "/api/v3/internal/alerts"


class _Switchable(httpx.AsyncBaseTransport):
    """The API's network path, which can go down as a stopped API does (connection refused)."""

    def __init__(self, *, down: bool) -> None:
        self.down = down
        self.polled = 0
        self.refused = 0
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            self.refused += 1
            raise httpx.ConnectError("connection refused", request=request)
        response = await self._inner.handle_async_request(request)
        if request.method == "GET" and request.url.path == FEED:
            self.polled += 1
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def _alert_lines(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name == "genji.alerts" and r.levelno == level
    ]


async def _until(what: str, condition: object) -> None:
    async def probe() -> bool:
        return bool(condition() if callable(condition) else condition)

    await eventually(probe, 30, what)


async def test_an_api_never_reached_is_info_and_delivery_starts_when_it_comes_up(
    stack: BotStack, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="genji.alerts")
    api = _Switchable(down=True)
    async with af.running(af.supervisor(stack, transport=api)):
        await _until("three refused polls", lambda: api.refused >= 3)
        api.down = False
        await _until("a poll that reaches the api", lambda: api.polled >= 1)
        await _until(
            "the recovery line",
            lambda: any("recovered" in m for m in _alert_lines(caplog, logging.INFO)),
        )
    assert _alert_lines(caplog, logging.WARNING) == []
    waits = [m for m in _alert_lines(caplog, logging.INFO) if "waits for the api" in m]
    assert len(waits) == 1 and "api unavailable" in waits[0], waits


async def test_a_reached_api_gone_while_the_bot_stops_is_not_a_warning(
    stack: BotStack, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="genji.alerts")
    api = _Switchable(down=False)
    async with af.running(af.supervisor(stack, transport=api)):
        await _until("a poll that reaches the api", lambda: api.polled >= 1)
        api.down = True
        await _until("one refused poll", lambda: api.refused >= 1)
    assert _alert_lines(caplog, logging.WARNING) == []
    paused = [m for m in _alert_lines(caplog, logging.INFO) if "alert delivery paused" in m]
    assert len(paused) == 1 and "api unavailable" in paused[0], paused


async def test_a_reached_api_unavailable_past_one_poll_interval_is_warned_once(
    stack: BotStack, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="genji.alerts")
    api = _Switchable(down=False)
    async with af.running(af.supervisor(stack, transport=api)):
        await _until("a poll that reaches the api", lambda: api.polled >= 1)
        api.down = True
        await _until("four refused polls", lambda: api.refused >= 4)
        api.down = False
        await _until(
            "the recovery line",
            lambda: any("recovered" in m for m in _alert_lines(caplog, logging.INFO)),
        )
    [warning] = _alert_lines(caplog, logging.WARNING)
    assert warning.startswith("alert delivery paused: api unavailable: ConnectError for "), warning
