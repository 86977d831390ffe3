"""Prints the schema a fresh database has after the whole migration plan (db/schema.sql)."""

from __future__ import annotations

import re
import subprocess
import sys

from genji_api.migrate import apply_plan

from genji_devstack.cluster import PgCluster, find_bindir

OWNER_ROLE = re.compile(r"FOR ROLE \S+")
# The migration tools' bookkeeping is not part of the application schema: yoyo's tables, and
# the registry schema Sqitch deploys with (`sqitch --registry`).
EXCLUDED = ("_yoyo_log", "_yoyo_migration", "_yoyo_version", "yoyo_lock")
SQITCH_REGISTRY = "sqitch"


def dump_schema(dsn: str) -> str:
    args = [str(find_bindir() / "pg_dump"), "--schema-only", "--no-owner", "--no-comments"]
    for table in EXCLUDED:
        args += ["--exclude-table", table]
    args += ["--exclude-schema", SQITCH_REGISTRY]
    result = subprocess.run([*args, dsn], check=True, capture_output=True, text=True)
    lines = [
        # The migrating role's name varies by server; the dump is about what it owns.
        OWNER_ROLE.sub("FOR ROLE <owner>", line)
        for line in result.stdout.splitlines()
        if not line.startswith(("-- Dumped from", "-- Dumped by", "\\restrict", "\\unrestrict"))
    ]
    return "\n".join(lines).strip() + "\n"


def main() -> int:
    # Never crashed or restarted, so it may skip the disk flushes.
    with PgCluster(durable=False) as cluster:
        dsn = cluster.create_owned_database("schema_dump")
        apply_plan(dsn)
        sys.stdout.write(dump_schema(dsn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
