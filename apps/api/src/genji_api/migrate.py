"""Applies the Sqitch plan in db/ with yoyo.

db/sqitch.plan lists the changes in order; each has deploy/, revert/ and verify/ scripts, so the
same plan deploys with Sqitch. Here every change becomes one yoyo migration: the deploy script
is its apply step (followed by the verify script in the same transaction) and the revert script
its rollback. yoyo records what is applied and serializes concurrent migrators with its lock.
psql include directives (\\i, \\ir) in scripts are expanded, which is how the function sources
in sql/ are installed.

The plan runs only as the role that owns the database, never as a superuser: the objects it
creates belong to the migrating role, and SECURITY DEFINER functions run with their owner's
rights.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from yoyo import get_backend
from yoyo.migrations import Migration, MigrationList, StepCollector

INCLUDE = re.compile(r"^\\(ir?)\s+(\S+)\s*$", re.MULTILINE)


def db_dir() -> Path:
    override = os.environ.get("GENJI_DB_DIR")
    return Path(override) if override else Path(__file__).resolve().parents[4] / "db"


@dataclass(frozen=True)
class PlannedChange:
    name: str
    requires: tuple[str, ...]


def read_plan(directory: Path) -> list[PlannedChange]:
    changes: list[PlannedChange] = []
    for raw in (directory / "sqitch.plan").read_text().splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith(("%", "#", "@")):
            continue
        name = line.split()[0]
        deps = re.search(r"\[([^\]]*)\]", line)
        requires = tuple(deps.group(1).split()) if deps else ()
        changes.append(PlannedChange(name, requires))
    return changes


def render_script(path: Path) -> str:
    """Script text with psql includes expanded (\\ir is relative to the including file)."""

    def expand(match: re.Match[str]) -> str:
        kind, target = match.groups()
        base = path.parent if kind == "ir" else Path.cwd()
        return render_script((base / target).resolve())

    return INCLUDE.sub(expand, path.read_text())


def _execute(sql: str, connection: Any) -> None:
    # Without parameters psycopg sends the whole script as one simple query.
    with connection.cursor() as cursor:
        cursor.execute(sql)


class PlanChange(Migration):  # type: ignore[misc]
    """One Sqitch change as a yoyo migration."""

    def __init__(self, change: PlannedChange, directory: Path, requires: list[PlanChange]):
        super().__init__(
            change.name, str(directory / "deploy" / f"{change.name}.sql"), str(directory)
        )
        self._directory = directory
        self._requires = requires

    def load(self) -> None:
        if self.loaded:
            return
        deploy = render_script(self._directory / "deploy" / f"{self.id}.sql")
        verify = render_script(self._directory / "verify" / f"{self.id}.sql")
        revert = render_script(self._directory / "revert" / f"{self.id}.sql")
        self.source = deploy

        def apply(connection: Any) -> None:
            _execute(deploy, connection)
            _execute(verify, connection)

        def rollback(connection: Any) -> None:
            _execute(revert, connection)

        collector = StepCollector(migration=self)
        collector.add_step(apply, rollback)
        self._depends = set(self._requires)
        self.use_transactions = True
        self.steps = collector.create_steps(True)


def plan_migrations(directory: Path | None = None, through: str | None = None) -> MigrationList:
    """The plan as yoyo migrations, optionally only up to and including change `through`."""
    directory = directory or db_dir()
    built: dict[str, PlanChange] = {}
    items: list[PlanChange] = []
    for change in read_plan(directory):
        unknown = [r for r in change.requires if r not in built]
        if unknown:
            raise ValueError(f"{change.name} requires {unknown}, which are not earlier in the plan")
        migration = PlanChange(change, directory, [built[r] for r in change.requires])
        built[change.name] = migration
        items.append(migration)
        if change.name == through:
            break
    else:
        if through is not None:
            raise ValueError(f"no change named {through!r} in the plan")
    return MigrationList(items)


def yoyo_url(dsn: str) -> str:
    """yoyo needs the psycopg 3 driver spelled out in the scheme."""
    return re.sub(r"^postgres(ql)?://", "postgresql+psycopg://", dsn)


class MigrationRoleError(RuntimeError):
    """The connection does not log in as the database's non-superuser owner."""


def require_owner_login(dsn: str) -> None:
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            """SELECT current_user, r.rolsuper, pg_get_userbyid(d.datdba)
               FROM pg_roles r, pg_database d
               WHERE r.rolname = current_user AND d.datname = current_database()"""
        ).fetchone()
    if row is None:
        raise MigrationRoleError("cannot read the migrating role or the database owner")
    user, is_superuser, owner = row
    if is_superuser:
        raise MigrationRoleError(
            f"refusing to migrate as superuser {user}: log in as the database owner instead"
        )
    if user != owner:
        raise MigrationRoleError(f"migrations must run as the database owner {owner}, not {user}")


def apply_plan(dsn: str, through: str | None = None) -> list[str]:
    """Apply every pending change (up to `through`); returns the names applied."""
    require_owner_login(dsn)
    backend = get_backend(yoyo_url(dsn))
    with backend.lock():
        pending = backend.to_apply(plan_migrations(through=through))
        backend.apply_migrations(pending)
    return [m.id for m in pending]


def rollback_plan(dsn: str, count: int) -> list[str]:
    """Revert the last `count` applied changes, newest first."""
    require_owner_login(dsn)
    backend = get_backend(yoyo_url(dsn))
    with backend.lock():
        applied = backend.to_rollback(plan_migrations())[:count]
        backend.rollback_migrations(applied)
    return [m.id for m in applied]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Apply or revert the db/ Sqitch plan with yoyo.")
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL"), required=False)
    parser.add_argument("--through", help="stop after this change")
    parser.add_argument("--revert", type=int, metavar="N", help="revert the last N changes")
    args = parser.parse_args(argv)
    if not args.database:
        parser.error("--database or DATABASE_URL is required")
    try:
        if args.revert:
            names = rollback_plan(args.database, args.revert)
            print("reverted:", ", ".join(names) or "nothing")
        else:
            names = apply_plan(args.database, args.through)
            print("applied:", ", ".join(names) or "nothing (up to date)")
    except MigrationRoleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
