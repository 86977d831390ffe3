"""`python -m genji_api.cutover inventory|import|report`: the broker import's commands.

inventory MANIFEST               what each exported message would become; writes nothing
import MANIFEST --import-id ID   record every message's disposition and enqueue the imported
                                 ones in one transaction; a rerun changes nothing
report --import-id ID            the recorded dispositions; exit 1 while some need an operator
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from genji_api.cutover import manifest, service
from genji_api.database import Database, create_pool

# Dispositions an operator must still settle by hand.
ATTENTION = ("needs_reconciliation", "malformed", "unsupported")


def render(outcome: service.Outcome, title: str) -> str:
    lines = [
        title,
        f"manifest sha256 {outcome.manifest_sha256[:16]}…,"
        f" {outcome.source_messages} source messages, {len(outcome.rows)} dispositions",
    ]
    if outcome.import_id != service.DRY_RUN_ID:
        lines.append(
            f"recorded now: {outcome.recorded_now}, already recorded: {outcome.already_recorded}"
        )
    counts = outcome.counts()
    width = max([len("queue")] + [len(queue) for queue, _ in counts])
    lines.append(f"{'queue':<{width}}  {'disposition':<20}  count")
    for (queue, disposition), count in sorted(counts.items()):
        lines.append(f"{queue:<{width}}  {disposition:<20}  {count}")
    attention = [row for row in outcome.rows if row.disposition in ATTENTION]
    if attention:
        lines.append("needs an operator:")
        lines += [f"  {row.source_id}  {row.disposition}: {row.reason}" for row in attention]
    jobs = [row for row in outcome.rows if row.job_id is not None]
    if jobs:
        lines.append("jobs:")
        lines += [f"  {row.source_id}  {row.disposition}  {row.job_id}" for row in jobs]
    return "\n".join(lines)


async def _run(args: argparse.Namespace) -> tuple[str, int]:
    pool = await create_pool(args.database, min_size=1, max_size=2)
    try:
        database = Database(pool)
        if args.command == "inventory":
            loaded = manifest.load(Path(args.manifest))
            outcome = await service.inventory(database, loaded)
            return render(outcome, "inventory (dry run: nothing written)"), 0
        if args.command == "import":
            loaded = manifest.load(Path(args.manifest))
            outcome = await service.run_import(database, loaded, args.import_id)
            return render(outcome, f"import {args.import_id}"), 0
        outcome = await service.report(database, args.import_id)
        pending = any(row.disposition in ATTENTION for row in outcome.rows)
        return render(outcome, f"report {args.import_id}"), 1 if pending else 0
    finally:
        await pool.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m genji_api.cutover",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL"))
    commands = parser.add_subparsers(dest="command", required=True)
    inventory = commands.add_parser("inventory", help="dry run: classify, write nothing")
    inventory.add_argument("manifest")
    run = commands.add_parser("import", help="record dispositions and enqueue imported jobs")
    run.add_argument("manifest")
    run.add_argument("--import-id", required=True)
    report = commands.add_parser("report", help="the dispositions an import recorded")
    report.add_argument("--import-id", required=True)
    args = parser.parse_args(argv)
    if not args.database:
        parser.error("--database or DATABASE_URL is required")
    try:
        text, status = asyncio.run(_run(args))
    except (manifest.ManifestError, service.ImportIdentityError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(text)
    return status
