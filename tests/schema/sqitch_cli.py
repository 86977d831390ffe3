"""Runs the real Sqitch (Debian's `sqitch`, installed by `just deps`) on a plan directory."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from genji_devstack.schema_dump import SQITCH_REGISTRY

PLANNER_NAME = "Genji Shimada"
PLANNER_EMAIL = "dev@genjishimada.invalid"


def sqitch_target(dsn: str) -> str:
    """A libpq URI as a Sqitch target; a password in it reaches psql as PGPASSWORD."""
    return "db:pg:" + dsn.split(":", 1)[1]


def sqitch(directory: Path, *args: str, dsn: str | None = None) -> str:
    """Run `sqitch <args>` in `directory` (against `dsn`, in the registry schema dump_schema
    leaves out); returns its output, and fails with it when sqitch does."""
    target = ["--registry", SQITCH_REGISTRY, sqitch_target(dsn)] if dsn else []
    env = {
        **os.environ,
        # Only the project's sqitch.conf counts, not a developer's own settings.
        "SQITCH_USER_CONFIG": os.devnull,
        "SQITCH_FULLNAME": PLANNER_NAME,
        "SQITCH_EMAIL": PLANNER_EMAIL,
    }
    result = subprocess.run(
        ["sqitch", *args, *target], cwd=directory, env=env, capture_output=True, text=True
    )
    output = result.stdout + result.stderr
    if result.returncode != 0:
        shown = re.sub(r"//([^:/@]+):[^@/]*@", r"//\1:***@", " ".join(args + tuple(target)))
        raise AssertionError(f"sqitch {shown} exited {result.returncode}:\n{output}")
    return output
