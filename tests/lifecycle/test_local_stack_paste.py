"""What `just up` prints is one block to paste: exports (the API's URL, the key file, the owner's
DATABASE_URL without a password, PGPASSFILE) and commands that each run as printed from the
repository root. A SIGKILLed stack leaves nothing running and no files: its watchdog stops the
children and the postmaster and removes the run directory with the key and pgpass files."""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

from .local_stack_run import REPOSITORY, StackRun, alive, all_gone, start_stack

EXPORT = re.compile(r"^export ([A-Z_]+)=(\S+)$")


def _secrets_kept_out(run: StackRun, exports: dict[str, str]) -> None:
    key = Path(exports["KEY_FILE"]).read_text().strip()
    password = Path(exports["PGPASSFILE"]).read_text().rsplit(":", 1)[1].strip()
    assert key not in run.text() and password not in run.text()


def _run_as_pasted(block: list[str]) -> None:
    """Each command after the export lines, from the repository root, in a fresh shell."""
    commands = [line for line in block if not line.startswith(("export ", "#"))]
    assert any("genji-jobs" in c for c in commands), block
    assert any("discord_standin report --url" in c for c in commands), block
    assert any(c.startswith("psql ") for c in commands), block
    prefix = "\n".join(line for line in block if EXPORT.match(line))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PGPASSFILE")}
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", f"{prefix}\n{command}"],
            cwd=REPOSITORY,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr, (command, done.stderr)


def _files_gone(*paths: str) -> bool:
    return not any(Path(path).exists() for path in paths)


async def test_the_printed_block_runs_as_pasted_and_a_sigkilled_stack_leaves_nothing(
    tmp_path: Path,
) -> None:
    run = start_stack(tmp_path, "paste")
    try:
        await run.ready()
        block = run.block()
        exports = dict(m.groups() for line in block if (m := EXPORT.match(line)))
        assert set(exports) == {"URL", "KEY_FILE", "DATABASE_URL", "PGPASSFILE"}, block
        assert "@" in exports["DATABASE_URL"]
        assert ":" not in exports["DATABASE_URL"].split("//")[1].split("@")[0], "a password"
        _secrets_kept_out(run, exports)
        _run_as_pasted(block)

        pids = run.pids()
        run_dir = run.run_dir()
        os.kill(pids["stack"], signal.SIGKILL)
        await all_gone(pids, 10, "the children and the postmaster to stop by themselves")
        await all_gone({"watchdog": pids["watchdog"]}, 10, "the watchdog to finish")
        assert _files_gone(str(run_dir), exports["KEY_FILE"], exports["PGPASSFILE"])
        assert not alive(pids["postmaster"])
    finally:
        run.stop()
