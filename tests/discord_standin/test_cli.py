"""The stand-in as a process: serve prints its URL and stops on SIGTERM; report prints what
it holds, or exits 2 when nothing answers."""

from __future__ import annotations

import asyncio
import signal
import sys

from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.ports import free_port

MODULE = "genji_devstack.discord_standin"


async def _run(*arguments: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        MODULE,
        *arguments,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_serve_then_report_then_stop() -> None:
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        MODULE,
        "serve",
        "--port",
        "0",
        "--nonce-window",
        "5",
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert server.stdout is not None
        line = (await asyncio.wait_for(server.stdout.readline(), 20)).decode().strip()
        url = line.rsplit(" ", 1)[-1]
        assert line.startswith("discord stand-in ready at http://127.0.0.1:")
        async with StandInControl(url) as control:
            state = await control.state()
        assert state["guild"]["id"] == "1000000000000000000"
        status, out, _ = await _run("report", "--url", url)
        assert status == 0
        assert "#completions" not in out  # empty channels are left out
        assert "requests:" in out
    finally:
        server.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(server.wait(), 20) == 0


async def test_report_exits_2_when_nothing_answers() -> None:
    status, out, err = await _run("report", "--url", f"http://127.0.0.1:{free_port()}")
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
