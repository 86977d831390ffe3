"""`just up` from start to stop: the run directory and its watchdog, the database, the children in
order (the services, the API, then the bot), the block to paste, then watching until a stop."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from genji_bot.settings import bot_settings_from_env
from genji_worker.process import worker_dsn

from genji_devstack.local_stack.children import Child
from genji_devstack.local_stack.database import open_database, seed, set_stale_heartbeat
from genji_devstack.local_stack.output import Ready, block
from genji_devstack.local_stack.rundir import new_run_dir, private_file
from genji_devstack.local_stack.signals import StopSignals
from genji_devstack.local_stack.supervisor import StackFailed, Supervisor
from genji_devstack.local_stack.terminal import take_foreground
from genji_devstack.ports import free_port

# The seeded bot account, the verifier of automatic verdicts.
BOT_USER_ID = 1000000000000000000
READY_DEADLINE = 60.0


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _watchdog(stack: ExitStack, run: Path) -> None:
    watchdog = subprocess.Popen(
        [sys.executable, "-m", "genji_devstack.local_stack.watchdog", str(run)],
        stdin=subprocess.PIPE,
        start_new_session=True,
    )
    print(f"watchdog pid {watchdog.pid}", flush=True)

    def clean_stop() -> None:
        assert watchdog.stdin is not None
        watchdog.stdin.write(b"done\n")
        watchdog.stdin.close()
        watchdog.wait(10)
        shutil.rmtree(run, ignore_errors=True)

    stack.callback(clean_stop)


def _run(stack: ExitStack, signals: StopSignals) -> None:
    run = new_run_dir()
    _watchdog(stack, run)
    print(f"stack pid {os.getpid()}: stop with Ctrl-C or kill -INT {os.getpid()}", flush=True)
    database = open_database(stack, run)
    stale = os.environ.get("GENJI_STALE_HEARTBEAT")
    if stale:
        set_stale_heartbeat(database.dsn, float(stale))
    api_key, bot_key = seed(database.dsn)
    # The bot's environment never carries the owner's connection string.
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL")}
    base["BOT_USER_ID"] = str(BOT_USER_ID)
    queue_url = os.environ.get("QUEUE_DATABASE_URL")
    bot_dsn = queue_url or worker_dsn(database.dsn, database.worker_password)
    ocr_port, api_port = free_port(), free_port()
    url = f"http://127.0.0.1:{api_port}"
    # Each process serves its own /metrics on loopback (genji_worker.metrics).
    api_metrics = f"http://127.0.0.1:{free_port()}/metrics"
    bot_metrics = f"http://127.0.0.1:{free_port()}/metrics"
    supervisor = Supervisor(run, signals)
    stack.callback(supervisor.stop)
    ocr = supervisor.start(
        Child(
            "fake OCR",
            [sys.executable, "-m", "genji_devstack.fake_ocr", "--port", str(ocr_port)],
            base,
            service=True,
        )
    )
    ocr_url = f"http://127.0.0.1:{ocr_port}"
    standin_url: str | None = None
    discord: dict[str, str] = {}
    if not os.environ.get("DISCORD_TOKEN"):
        standin_url = f"http://127.0.0.1:{free_port()}"
        # A throwaway token of this stack's own, which only its stand-in accepts.
        token = secrets.token_urlsafe(24)
        serve = ["serve", "--port", standin_url.rsplit(":", 1)[1], f"--token={token}"]
        standin = supervisor.start(
            Child(
                "Discord stand-in",
                [sys.executable, "-m", "genji_devstack.discord_standin", *serve],
                {k: v for k, v in base.items() if k not in ("DISCORD_TOKEN", "DISCORD_URL")},
                service=True,
                restart_note=(
                    "warning: the Discord stand-in keeps everything in memory: the restarted "
                    f"one at {standin_url} starts empty (no messages, interactions or denied "
                    "channels of before), and the bot's edits of earlier messages find nothing"
                ),
            )
        )
        gateway = f"{standin_url}/_standin/gateway"
        supervisor.wait_until(standin, "did not answer", lambda: _answers(gateway), READY_DEADLINE)
        discord = {"DISCORD_URL": standin_url, "DISCORD_TOKEN": token}
        # The API accepts a Retry job or Discard press only from the configured guild's job
        # alerts channel: the ones the stand-in was seeded with.
        seeded = bot_settings_from_env({**base, "GENJI_API_KEY": bot_key})
        base.setdefault("DISCORD_GUILD_ID", str(seeded.guild_id))
        base.setdefault("JOB_ALERTS_CHANNEL_ID", str(seeded.channels.job_alerts))
        # The local view presses as the operator by default: let them moderate too.
        base.setdefault("MODERATOR_IDS", ",".join(map(str, seeded.queue_operator_ids)))
    supervisor.wait_until(ocr, "did not answer", lambda: _answers(f"{ocr_url}/requests"), 30)
    api = supervisor.start(
        Child(
            "API and API worker",
            [sys.executable, "-m", "genji_api"],
            {
                **base,
                "DATABASE_URL": database.dsn,
                "API_PORT": str(api_port),
                "OCR_URL": ocr_url,
                "GENJI_METRICS_PORT": api_metrics.split(":")[2].split("/")[0],
                "GENJI_METRICS_ADDR": "127.0.0.1",
            },
        )
    )
    # The bot starts once the API answers, so its alert delivery never starts paused.
    supervisor.wait_until(
        api, "did not answer /healthcheck", lambda: _answers(f"{url}/healthcheck"), READY_DEADLINE
    )
    bot = supervisor.start(
        Child(
            "bot worker",
            [sys.executable, "-m", "genji_bot"],
            {
                **base,
                **discord,
                "QUEUE_DATABASE_URL": bot_dsn,
                "GENJI_API_URL": url,
                "GENJI_API_KEY": bot_key,
                "GENJI_METRICS_PORT": bot_metrics.split(":")[2].split("/")[0],
                "GENJI_METRICS_ADDR": "127.0.0.1",
            },
        )
    )
    supervisor.wait_until(
        bot, "did not serve its metrics", lambda: _answers(bot_metrics), READY_DEADLINE
    )
    key_file = private_file(run / "api-key", api_key + "\n")
    ready = Ready(
        stack_pid=os.getpid(),
        api_url=url,
        key_file=key_file,
        database_url=database.operator_url,
        passfile=database.passfile,
        api_metrics=api_metrics,
        bot_metrics=bot_metrics,
        standin_url=standin_url,
        pids={name: child.pid for name, child in supervisor.children.items()},
    )
    print(block(ready), flush=True)
    supervisor.watch()


def main() -> int:
    signals = StopSignals()
    signals.install()
    give_back = take_foreground()
    code = 0
    try:
        with ExitStack() as stack:
            try:
                _run(stack, signals)
            except KeyboardInterrupt:
                print("stopping the API and the workers (graceful drain), then the database")
            except StackFailed as failure:
                print(failure.message, file=sys.stderr, flush=True)
                print("stopping everything", flush=True)
                code = failure.code
            signals.begin_stop()
        print("stopped", flush=True)
    finally:
        give_back()
    return code
