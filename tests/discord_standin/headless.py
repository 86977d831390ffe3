"""Headless chromium driven over the Chrome DevTools Protocol with aiohttp: start it with a
private profile, open a URL in its page, evaluate JavaScript there, wait until an expression
holds, take a screenshot. `just deps` installs Debian's chromium. Its profile is removed only
after every process of the browser has ended (browser_processes.py)."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from .browser_processes import stop_browser

START_WITHIN = 10.0


class BrowserError(Exception):
    pass


class Page:
    """One page target's DevTools session: one command at a time, events ignored."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._socket = socket
        self._ids = itertools.count(1)

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        command_id = next(self._ids)
        await self._socket.send_json({"id": command_id, "method": method, "params": params or {}})
        async for message in self._socket:
            if message.type is not aiohttp.WSMsgType.TEXT:
                raise BrowserError(f"DevTools socket ended during {method}: {message.type}")
            answer = json.loads(message.data)
            if answer.get("id") != command_id:
                continue
            if "error" in answer:
                raise BrowserError(f"{method}: {answer['error']}")
            result: dict[str, Any] = answer["result"]
            return result
        raise BrowserError(f"DevTools socket closed during {method}")

    async def navigate(self, url: str) -> None:
        result = await self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise BrowserError(f"cannot open {url}: {result['errorText']}")

    async def evaluate(self, expression: str) -> Any:
        """The expression's value (JSON-serialisable), awaited when it is a promise."""
        result = await self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(f"{expression!r} threw: {details.get('exception', details)}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, *, within: float = 5.0, poll: float = 0.05) -> Any:
        """Evaluate until the value is truthy (TimeoutError after `within` seconds)."""
        deadline = time.monotonic() + within
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"never true within {within} s: {expression}")
            await asyncio.sleep(poll)

    async def screenshot(self) -> bytes:
        result = await self.send("Page.captureScreenshot", {"format": "png"})
        return base64.b64decode(result["data"])


def _written_port(profile: Path) -> int | None:
    """The port chromium chose, once it has written its DevToolsActivePort file."""
    marker = profile / "DevToolsActivePort"
    if not marker.exists():
        return None
    first = marker.read_text().split("\n", 1)[0].strip()
    return int(first) if first.isdigit() else None


def _tail(log: Path) -> str:
    return log.read_text(errors="replace")[-2000:]


async def _devtools_port(profile: Path, process: asyncio.subprocess.Process, log: Path) -> int:
    deadline = time.monotonic() + START_WITHIN
    while True:
        port = _written_port(profile)
        if port is not None:
            return port
        if process.returncode is not None or time.monotonic() > deadline:
            raise BrowserError(f"chromium did not start:\n{_tail(log)}")
        await asyncio.sleep(0.02)


@asynccontextmanager
async def headless_page(*, width: int = 1400, height: int = 900) -> AsyncIterator[Page]:
    """A headless chromium (no sandbox: it runs as root here) with one blank page."""
    binary = shutil.which("chromium")
    if binary is None:
        raise BrowserError("chromium is not installed: run `just deps`")
    with tempfile.TemporaryDirectory(prefix="standin-chromium-") as directory:
        profile = Path(directory) / "profile"
        log = Path(directory) / "chromium.log"
        with log.open("wb") as output:
            process = await asyncio.create_subprocess_exec(
                binary,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-port=0",
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
                stdin=asyncio.subprocess.DEVNULL,
                stdout=output,
                stderr=output,
                start_new_session=True,
                # Its crash handlers' database, in place of the home directory's.
                env={**os.environ, "XDG_CONFIG_HOME": str(Path(directory) / "config")},
            )
        try:
            port = await _devtools_port(profile, process, log)
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/json/list") as response:
                    targets = await response.json()
                pages = [target for target in targets if target.get("type") == "page"]
                if not pages:
                    raise BrowserError(f"chromium has no page: {targets}")
                async with http.ws_connect(
                    pages[0]["webSocketDebuggerUrl"], max_msg_size=0
                ) as socket:
                    yield Page(socket)
        finally:
            # Only once no process of the browser is left can nothing write the profile while
            # the directory is removed.
            await stop_browser(process, Path(directory))
