"""`just up` never waits in silence on a stack that cannot run: a child that dies while the stack
comes up ends it with the child's last lines, a configuration error is not restarted, a crash
loop is given up, and a DATABASE_URL that cannot be used is one line within a connect timeout."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.support.harness import eventually

from .local_stack_run import REPOSITORY, alive, all_gone, stack_env, start_stack


async def test_a_child_dying_before_ready_ends_the_stack_at_once_with_its_last_lines(
    tmp_path: Path,
) -> None:
    # An address of no local interface: uvicorn cannot bind and exits 3, a crash, not a setting.
    run = start_stack(tmp_path, "unbindable", stack_env(API_HOST="203.0.113.7"))
    try:

        async def api_started() -> bool:
            assert run.process.poll() is None, run.text()
            return bool(run.started("API and API worker"))

        await eventually(api_started, 180, "the API to start")
        api = run.pid("API and API worker")

        async def api_died() -> bool:
            return not alive(api)

        await eventually(api_died, 120, "the API to fail")
        died = time.monotonic()
        code = await run.exited(15)
        assert time.monotonic() - died < 10, run.text()
        text = run.text()
        assert code == 1, text
        assert "API and API worker exited with 3 before the stack was ready" in text, text
        assert "  | " in text and "203.0.113.7" in text.split("before the stack was ready")[1]
        assert "the stack is up" not in text
        assert "bot worker started" not in text
        await all_gone(run.pids(), 10, "the stack's processes to stop")
        assert not run.run_dir().exists()
    finally:
        run.stop()


async def test_a_bad_worker_setting_ends_the_stack_with_2_naming_it_and_is_never_restarted(
    tmp_path: Path,
) -> None:
    run = start_stack(tmp_path, "typo", stack_env(GENJI_QUEUE_RETRY_DELAY="1,1"))
    try:
        code = await run.exited(240)
        text = run.text()
        assert code == 2, text
        assert (
            "unknown setting GENJI_QUEUE_RETRY_DELAY; did you mean GENJI_QUEUE_RETRY_DELAYS?"
            in text
        ), text
        assert "a configuration or login error" in text, text
        assert len(run.started("API and API worker")) == 1, text
        assert "restarting" not in text and "Traceback" not in text, text
        await all_gone(run.pids(), 10, "the stack's processes to stop")
    finally:
        run.stop()


def _up_with_database(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "genji_devstack.local_stack"],
        env=stack_env(DATABASE_URL=url),
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        start_new_session=True,
    )


def _one_line(result: subprocess.CompletedProcess[str], where: str) -> str:
    assert result.returncode == 2, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: DATABASE_URL ({where}) cannot be used: "), lines
    assert "Traceback" not in result.stdout + result.stderr
    assert "not-a-password" not in result.stdout + result.stderr
    return lines[0]


def test_a_database_url_on_a_closed_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again when the block ends
    started = time.monotonic()
    result = _up_with_database(f"postgresql://genjishimada:not-a-password@127.0.0.1:{port}/x")
    assert time.monotonic() - started < 30, result
    assert "refused" in _one_line(result, f"127.0.0.1:{port}/x")


def test_a_database_url_on_a_port_that_says_nothing_is_one_line_within_the_timeout(
    tmp_path: Path,
) -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel accepts the connection; nobody ever answers
        port = silent.getsockname()[1]
        started = time.monotonic()
        result = _up_with_database(f"postgresql://genjishimada:not-a-password@127.0.0.1:{port}/x")
        assert time.monotonic() - started < 30, result
    assert "timeout" in _one_line(result, f"127.0.0.1:{port}/x").lower()


async def test_a_child_failing_fast_again_and_again_is_given_up(tmp_path: Path) -> None:
    run = start_stack(tmp_path, "crashloop")
    try:
        await run.ready()
        killed: set[int] = set()

        async def given_up() -> bool:
            # Every fake OCR the stack starts dies at once: a crash loop.
            for pid in run.started("fake OCR"):
                if pid not in killed:
                    killed.add(pid)
                    os.kill(pid, signal.SIGKILL)
            return run.process.poll() is not None

        await eventually(given_up, 90, "the stack to give up the fake OCR")
        text = run.text()
        assert run.process.returncode == 1, text
        assert "fake OCR exited with -9, its 5th failure in a row" in text, text
        assert "giving up" in text, text
        # The first fake OCR counts as a fast failure only if it died within 10 s of its start,
        # which depends on how fast the rest of the stack came up: 5 or 6 were started.
        assert len(run.started("fake OCR")) in (5, 6), text
        assert "restarting in 4s" in text, text  # the delay doubled
        await all_gone(run.pids(), 15, "the stack's processes to stop")
    finally:
        run.stop()
