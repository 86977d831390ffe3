"""Puts the migration plan into the wheel as genji_api/migrations/db.

Built from the workspace, the plan is the repository's db/, two levels above this project; built
from the sdist, it is the sdist's own db/ copy (pyproject.toml, sdist force-include). An
editable install reads the checkout's db/ in place (genji_api.migrations.location), so only the
standard wheel gets a copy.
"""

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PLAN_PARTS = ("sqitch.plan", "sqitch.conf", "deploy", "revert", "verify")
TARGET = "genji_api/migrations/db"


class MigrationPlanHook(BuildHookInterface):  # type: ignore[misc]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        root = Path(self.root)
        candidates = (root / "db", root.parents[1] / "db")
        source = next((d for d in candidates if (d / "sqitch.plan").is_file()), None)
        if source is None:
            raise FileNotFoundError(f"no migration plan in {' or '.join(map(str, candidates))}")
        for part in PLAN_PARTS:
            build_data["force_include"][str(source / part)] = f"{TARGET}/{part}"
