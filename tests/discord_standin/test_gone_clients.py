"""A client that goes away while the stand-in still handles its request is one DEBUG line, not
an error with a traceback."""

from __future__ import annotations

import logging

import httpx
import pytest
from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.seed import DEFAULT_TOKEN
from genji_devstack.discord_standin.server import DiscordStandIn

from tests.support.harness import eventually

from .standin_bot import SETTINGS

ROUTE = "POST /channels/{channel_id}/messages"


async def test_a_client_gone_mid_request_is_one_debug_line_without_a_traceback(
    standin: DiscordStandIn, control: StandInControl, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    # The request waits before its body is read; the client gives up meanwhile, so reading it
    # finds the connection reset.
    await control.add_fault(ROUTE, "delay", seconds=1.0)
    channel = SETTINGS.channels.job_alerts
    async with httpx.AsyncClient(base_url=standin.url) as client:
        with pytest.raises(httpx.ReadTimeout):
            await client.post(
                f"/api/v10/channels/{channel}/messages",
                headers={"Authorization": f"Bot {DEFAULT_TOKEN}"},
                json={"content": "never answered"},
                timeout=0.2,
            )

    def gone() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "client went away" in r.getMessage()]

    def loud() -> list[tuple[str, str]]:
        return [
            (r.name, r.getMessage())
            for r in caplog.records
            if r.levelno >= logging.WARNING or r.exc_info
        ]

    async def handled() -> bool:
        return bool(gone() or loud())

    await eventually(handled, 10, "the stand-in to finish the request of the gone client")
    assert loud() == []
    [line] = gone()
    assert line.levelno == logging.DEBUG and line.exc_info is None
    assert "ConnectionResetError" in line.getMessage()
