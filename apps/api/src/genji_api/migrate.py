"""Applies the Sqitch plan in db/ with yoyo.

db/sqitch.plan lists the changes in order; each has deploy/, revert/ and verify/ scripts, so the
same plan deploys with Sqitch. Here every change becomes one yoyo migration: the deploy script
is its apply step (followed by the verify script in the same transaction) and the revert script
its rollback. yoyo records what is applied and serializes concurrent migrators with its lock.

A reworked change is one migration per instance. yoyo records an instance by its plan key
(`<name>` for the first instance, `<name>+<tag>` for a rework after <tag>), which stays the same
when a later rework renames the instance's scripts to `<name>@<tag>.sql`.

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
from pathlib import Path
from typing import Any

import psycopg
from yoyo import get_backend
from yoyo.migrations import Migration, MigrationList, StepCollector

from genji_api.migrations.location import db_dir
from genji_api.migrations.plan import SCRIPT_KINDS, Change, read_plan


def _execute(sql: str, connection: Any) -> None:
    # Without parameters psycopg sends the whole script as one simple query.
    with connection.cursor() as cursor:
        cursor.execute(sql)


class PlanChange(Migration):  # type: ignore[misc]
    """One instance of a Sqitch change as a yoyo migration."""

    def __init__(self, change: Change, directory: Path, requires: list[PlanChange]):
        super().__init__(change.key, str(change.path(directory, "deploy")), str(directory))
        self._change = change
        self._directory = directory
        self._requires = requires

    def load(self) -> None:
        if self.loaded:
            return
        deploy, revert, verify = (
            self._change.path(self._directory, kind).read_text() for kind in SCRIPT_KINDS
        )
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
    """The plan as yoyo migrations, optionally only up to and including the change keyed
    `through`."""
    directory = directory or db_dir()
    built: dict[str, PlanChange] = {}
    for change in read_plan(directory).changes:
        built[change.key] = PlanChange(change, directory, [built[r] for r in change.requires])
        if change.key == through:
            break
    else:
        if through is not None:
            raise ValueError(f"no change keyed {through!r} in the plan")
    return MigrationList(list(built.values()))


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


def apply_plan(dsn: str, through: str | None = None, directory: Path | None = None) -> list[str]:
    """Apply every pending change (up to `through`); returns the keys applied."""
    require_owner_login(dsn)
    backend = get_backend(yoyo_url(dsn))
    with backend.lock():
        pending = backend.to_apply(plan_migrations(directory, through))
        backend.apply_migrations(pending)
    return [m.id for m in pending]


def rollback_plan(dsn: str, count: int, directory: Path | None = None) -> list[str]:
    """Revert the last `count` applied changes, newest first."""
    require_owner_login(dsn)
    backend = get_backend(yoyo_url(dsn))
    with backend.lock():
        applied = backend.to_rollback(plan_migrations(directory))[:count]
        backend.rollback_migrations(applied)
    return [m.id for m in applied]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Apply or revert the db/ Sqitch plan with yoyo.")
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL"), required=False)
    parser.add_argument("--through", help="stop after the change with this key")
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
