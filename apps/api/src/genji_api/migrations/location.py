"""Where the migration plan (db/) is: the one lookup every reader of db/ goes through.

An installed wheel carries the plan's files as package data, in `db/` beside this module (the
wheel's `force-include` in apps/api/pyproject.toml). A workspace checkout installs the package
in editable mode, so there is no copy beside the module: the plan is the checkout's own `db/`,
found as the nearest ancestor directory holding `db/sqitch.plan`. `GENJI_DB_DIR` overrides both.
"""

from __future__ import annotations

import os
from pathlib import Path

PLAN_FILE = "sqitch.plan"
_HERE = Path(__file__).resolve().parent


class PlanNotFoundError(FileNotFoundError):
    """Neither the package nor any directory above it holds the migration plan."""


def db_dir() -> Path:
    override = os.environ.get("GENJI_DB_DIR")
    if override:
        return Path(override)
    packaged = _HERE / "db"
    if (packaged / PLAN_FILE).is_file():
        return packaged
    for ancestor in _HERE.parents:
        if (ancestor / "db" / PLAN_FILE).is_file():
            return ancestor / "db"
    raise PlanNotFoundError(f"no db/{PLAN_FILE} in {packaged} or above {_HERE}")
