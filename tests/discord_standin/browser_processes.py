"""Every process of one headless chromium, and stopping all of them before its directory goes.

Chromium's zygotes, renderers and utility services outlive the browser process for a moment
after it exits (for longer when it was killed), and its storage service can still be writing the
profile then. The browser is started leading a process group of its own; its two crash handlers
lead sessions of their own, but name the browser's directory on their command line (its config
directory is inside it). A process that has exited (a zombie not yet reaped) counts as gone.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path


class BrowserLeftRunning(Exception):
    pass


def _stat_fields(pid: str) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _names(pid: str, directory: str) -> bool:
    try:
        return directory in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return False


def browser_processes(group: int, directory: Path) -> list[int]:
    """Live processes in process group `group` or naming `directory` on their command line."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        fields = _stat_fields(pid)
        if fields is None or fields[0] in ("Z", "X"):
            continue
        if int(fields[2]) == group or _names(pid, f"{directory}{os.sep}"):
            found.append(int(pid))
    return found


async def _gone(group: int, directory: Path, within: float) -> list[int]:
    """Waits until none is left or `within` seconds pass; returns what is still left."""
    deadline = time.monotonic() + within
    while True:
        left = browser_processes(group, directory)
        if not left or time.monotonic() > deadline:
            return left
        await asyncio.sleep(0.02)


async def stop_browser(
    process: asyncio.subprocess.Process, directory: Path, within: float = 5.0
) -> None:
    """SIGTERM the browser, wait for it and everything it started, SIGKILL what outlasts
    `within` seconds; raises if anything is still alive after that."""
    if process.returncode is None:
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), within)
    except TimeoutError:
        process.kill()
        await process.wait()
    left = await _gone(process.pid, directory, within)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if left and (still := await _gone(process.pid, directory, within)):
        raise BrowserLeftRunning(f"chromium processes outlived SIGKILL: {still}")
