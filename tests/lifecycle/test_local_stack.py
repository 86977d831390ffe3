"""`just up` (genji_devstack.local_stack): each stack has its own stand-in of Discord, serves the API
with the key it prints, runs the real bot client connected to that stand-in with a key of its
own, and prints the PIDs an operator signals instead of matching processes by name."""

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
import pytest
from genji_bot.settings import BotSettings, Channels
from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.local_stack.stack import BOT_USER_ID
from genji_sdk.recovery import DEFAULT_ALERT_RECIPIENT

from tests.support.harness import eventually

# Two whole stacks with a deadline to come up: next to other xdist workers they miss it.
pytestmark = pytest.mark.alone

PIDS = {
    "stack": re.compile(r"^stack pid (\d+):", re.MULTILINE),
    "postmaster": re.compile(r"^postgres postmaster pid (\d+),", re.MULTILINE),
    "bot": re.compile(r"^bot worker started \(pid (\d+)\)", re.MULTILINE),
    "api": re.compile(r"^API and API worker started \(pid (\d+)\)", re.MULTILINE),
    "ocr": re.compile(r"^fake OCR started \(pid (\d+)\)", re.MULTILINE),
    "standin": re.compile(r"^Discord stand-in started \(pid (\d+)\)", re.MULTILINE),
}
COMMANDS = {
    "bot": "-m genji_bot",
    "api": "-m genji_api",
    "ocr": "genji_devstack.fake_ocr",
    "standin": "-m genji_devstack.discord_standin serve --port",
}
API = re.compile(r"^export URL=(http://\S+)$", re.MULTILINE)
KEY = re.compile(r"^export KEY_FILE=(\S+)$", re.MULTILINE)
REPORT = re.compile(
    r"^(uv run --frozen python -m genji_devstack\.discord_standin "
    r"report --url (http://127\.0\.0\.1:\d+))  # what the Discord stand-in holds$",
    re.MULTILINE,
)
STANDIN = REPORT

VIEW = re.compile(
    r"^# local view of Discord in a browser: (http://127\.0\.0\.1:\d+)/_standin/view$",
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

    def standin(self) -> str:
        match = STANDIN.search(self.text())
        assert match, self.text()
        return match.group(2)


def start(tmp: Path, name: str) -> LocalStack:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL", "DISCORD_TOKEN", "DISCORD_URL")
    }
    output = tmp / f"{name}.out"
    with output.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "genji_devstack.local_stack"],
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


def report(stack: LocalStack) -> subprocess.CompletedProcess[str]:
    """The report command exactly as printed, with this interpreter in place of `uv run`."""
    match = REPORT.search(stack.text())
    assert match and match.group(2) == stack.standin(), stack.text()
    printed = match.group(1).split()
    assert printed[:4] == ["uv", "run", "--frozen", "python"]
    return subprocess.run(
        [sys.executable, *printed[4:]], capture_output=True, text=True, timeout=30, check=False
    )


async def test_two_local_stacks_print_their_pids_and_never_share_a_discord(
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
        assert first.standin() != second.standin()
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
            assert bot["DISCORD_URL"] == stack.standin()
            # The stand-in and the bot share a token of this stack's own.
            assert len(bot["DISCORD_TOKEN"]) >= 24
            assert "GENJI_RECORDER_DIR" not in bot
            # The local view presses as the operator, who may therefore moderate.
            assert bot["MODERATOR_IDS"] == str(DEFAULT_ALERT_RECIPIENT)
            # The API takes alert card presses from the stand-in's guild and job alerts channel.
            api_env = environment(stack.pid("api"))
            assert api_env["DISCORD_GUILD_ID"] == str(BotSettings.guild_id)
            assert api_env["JOB_ALERTS_CHANNEL_ID"] == str(Channels().job_alerts)
            assert command(stack.pid("standin")).endswith(
                f"--port {stack.standin().rsplit(':', 1)[1]} --token={bot['DISCORD_TOKEN']} "
            )
            assert "QUEUE_DATABASE_URL" in bot and "DATABASE_URL" not in bot
            async with httpx.AsyncClient(headers={"X-API-KEY": bot["GENJI_API_KEY"]}) as client:
                views = await client.get(f"{api.group(1)}/api/v3/internal/views")
                assert views.status_code == 200, views.text  # the bot's scopes
            async with StandInControl(stack.standin()) as discord:

                async def connected(discord: StandInControl = discord) -> bool:
                    gateway = await discord.gateway()
                    return bool(gateway["connected"]) and gateway["readies"] >= 1

                await eventually(connected, 60, "the real bot to connect to the stand-in")
            view = VIEW.search(stack.text())
            assert view and view.group(1) == stack.standin(), stack.text()
            async with httpx.AsyncClient() as client:
                page = await client.get(f"{stack.standin()}/_standin/view")
                assert page.status_code == 200 and "<!doctype html>" in page.text
            listed = report(stack)
            assert listed.returncode == 0, listed.stderr
            assert "gateway: connected=True" in listed.stdout, listed.stdout

        # A completion with a video goes to manual review: the real bot posts its verification
        # card to the stand-in's verification channel.
        api, key = API.search(first.text()), KEY.search(first.text())
        assert api and key
        async with httpx.AsyncClient(headers={"X-API-KEY": read_key(key.group(1))}) as client:
            submitted = await client.post(
                f"{api.group(1)}/api/v3/completions/",
                json={
                    "code": "HELL9",
                    "user_id": 1000000000000000003,
                    "time": 300.5,
                    "screenshot": "https://img.example/run.png",
                    "video": "https://youtu.be/hell9",
                },
            )
            assert submitted.status_code in (200, 201), submitted.text
        async with StandInControl(first.standin()) as discord:

            async def carded() -> bool:
                return bool(await discord.messages(Channels().verification_queue))

            await eventually(carded, 60, "the verification card in the stand-in")
            (card,) = await discord.messages(Channels().verification_queue)
            assert card["author"]["id"] == str(BOT_USER_ID), card
            assert card["embeds"], card
        async with StandInControl(second.standin()) as discord:
            assert not await discord.messages(Channels().verification_queue)

        for stack in stacks:
            os.kill(stack.pid("stack"), signal.SIGTERM)
        for stack in stacks:
            assert stack.process.wait(90) == 0, stack.text()
            for name in ("postmaster", "bot", "api", "ocr", "standin"):
                assert not alive(stack.pid(name)), f"{name} survived the stop"
            gone = report(stack)
            assert gone.returncode == 2, gone
            assert gone.stderr.count("\n") == 1 and "cannot reach" in gone.stderr, gone.stderr
    finally:
        for stack in stacks:
            if stack.process.poll() is None:
                stack.process.terminate()
                try:
                    stack.process.wait(60)
                except subprocess.TimeoutExpired:
                    stack.process.kill()
