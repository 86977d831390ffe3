"""`just up` (genji_api.local_stack): each stack has its own effect recorder, serves the API
with the key it prints, runs the recorded bot (the real handlers, Discord recorded) with a key of
its own, and prints the PIDs an operator signals instead of matching processes by name."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from uuid import uuid4

import httpx
from harness import eventually

PIDS = {
    "stack": re.compile(r"^stack pid (\d+):", re.MULTILINE),
    "postmaster": re.compile(r"^postgres postmaster pid (\d+),", re.MULTILINE),
    "bot": re.compile(r"^bot worker started \(pid (\d+)\)", re.MULTILINE),
    "api": re.compile(r"^API and API worker started \(pid (\d+)\)", re.MULTILINE),
    "ocr": re.compile(r"^fake OCR started \(pid (\d+)\)", re.MULTILINE),
}
COMMANDS = {
    "bot": "genji_devstack.recorded_bot",
    "api": "-m genji_api",
    "ocr": "genji_devstack.fake_ocr",
}
API = re.compile(r"^API: (http://\S+)", re.MULTILINE)
KEY = re.compile(r"^local API key \(superuser\) in (\S+): KEY=", re.MULTILINE)
RECORDER = re.compile(r"^effects are recorded in (\S+)/effects\.jsonl$", re.MULTILINE)
RECORDED_BOT = re.compile(
    r"^no DISCORD_TOKEN: the bot records Discord in (\S+) "
    r"\(list it: python -m genji_devstack\.effects_report (\S+)\)$",
    re.MULTILINE,
)


@dataclass
class LocalStack:
    process: subprocess.Popen[bytes]
    output: Path

    def text(self) -> str:
        return self.output.read_text()

    def pid(self, name: str) -> int:
        match = PIDS[name].search(self.text())
        assert match, f"no {name} pid in:\n{self.text()}"
        return int(match.group(1))

    def recorder(self) -> Path:
        match = RECORDER.search(self.text())
        assert match, self.text()
        return Path(match.group(1))


def start(tmp: Path, name: str) -> LocalStack:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL", "GENJI_RECORDER_DIR", "DISCORD_TOKEN")
    }
    output = tmp / f"{name}.out"
    with output.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "genji_api.local_stack"],
            env={**env, "PYTHONUNBUFFERED": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return LocalStack(process, output)


def command(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def environment(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def read_key(path: str) -> str:
    return Path(path).read_text().strip()


async def test_two_local_stacks_print_their_pids_and_never_share_a_recorder(
    tmp_path: Path,
) -> None:
    stacks = [start(tmp_path, "first"), start(tmp_path, "second")]
    try:
        for stack in stacks:

            async def ready(stack: LocalStack = stack) -> bool:
                assert stack.process.poll() is None, stack.text()
                return KEY.search(stack.text()) is not None  # printed once the API serves

            await eventually(ready, 60, "the stack to come up")

        first, second = stacks
        assert first.recorder() != second.recorder()
        for stack in stacks:
            assert stack.pid("stack") == stack.process.pid
            assert "postgres" in command(stack.pid("postmaster"))
            for name, expected in COMMANDS.items():
                assert expected in command(stack.pid(name))
            api, key = API.search(stack.text()), KEY.search(stack.text())
            assert api and key, stack.text()
            local_key = read_key(key.group(1))
            assert local_key not in stack.text()  # named by its file, never printed
            async with httpx.AsyncClient(headers={"X-API-KEY": local_key}) as client:
                missing = await client.get(f"{api.group(1)}/api/v3/internal/jobs/{uuid4()}")
                assert missing.status_code == 404  # the printed key is accepted
                schema = await client.get(f"{api.group(1)}/schema/openapi.json")
                assert schema.status_code == 200
            bot = environment(stack.pid("bot"))
            assert bot["GENJI_API_URL"] == api.group(1)
            assert bot["GENJI_API_KEY"] != local_key
            assert bot["GENJI_RECORDER_DIR"] == str(stack.recorder())
            assert "QUEUE_DATABASE_URL" in bot and "DATABASE_URL" not in bot
            async with httpx.AsyncClient(headers={"X-API-KEY": bot["GENJI_API_KEY"]}) as client:
                views = await client.get(f"{api.group(1)}/api/v3/internal/views")
                assert views.status_code == 200, views.text  # the bot's scopes
            recorded = RECORDED_BOT.search(stack.text())
            assert recorded, stack.text()
            assert recorded.groups() == (str(stack.recorder()), str(stack.recorder()))
            assert stack.recorder().is_dir()
            assert stack.recorder().parent.name.startswith("genji-stack-")

        for stack in stacks:
            os.kill(stack.pid("stack"), signal.SIGTERM)
        for stack in stacks:
            assert stack.process.wait(90) == 0, stack.text()
            assert not stack.recorder().exists()
            for name in ("postmaster", "bot", "api", "ocr"):
                assert not alive(stack.pid(name)), f"{name} survived the stop"
    finally:
        for stack in stacks:
            if stack.process.poll() is None:
                stack.process.terminate()
                try:
                    stack.process.wait(60)
                except subprocess.TimeoutExpired:
                    stack.process.kill()
