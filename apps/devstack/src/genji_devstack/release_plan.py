"""Freezes released migrations: db/released pins every script of every change up to each tag.

    python -m genji_devstack.release_plan [--retag-unreleased] [--check]

For each tag of db/sqitch.plan, db/released has one line per deploy, revert and verify script of
the changes released with that tag (`@<tag> <sha256> <kind>/<name>.sql`), plus one for the plan
text up to and including the tag line (`sqitch.plan`). A script keeps its line when a later
rework renames it to `<name>@<tag>.sql`: the line names the script as it was released.

A run first copies each sql/<name>.sql over the deploy script of the newest instance of change
<name>, unless that instance is already released (then it says to rework the change instead).
It then appends the lines of every tag db/released does not have yet. It never rewrites a line:
if a released script changed, it lists the difference and writes nothing. --retag-unreleased
regenerates the lines of the plan's last tag; use it only while that tag has never been
deployed outside development. --check only reports problems.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from genji_api.migrations.plan import SCRIPT_KINDS, Plan, read_plan

MANIFEST = "released"
PLAN_ENTRY = "sqitch.plan"
HEADER = """\
# Released migrations: `@<tag> <sha256> <path>` for every script of every change released with
# <tag>, and for sqitch.plan up to the tag's line. Lines are only ever appended, by
# `just release-plan`; tests/schema/test_released_scripts.py fails when a released file changes.
"""
_LINE = re.compile(r"^@(?P<tag>\S+) (?P<digest>[0-9a-f]{64}) (?P<path>\S+)$")


class ManifestError(ValueError):
    """db/released cannot be read."""


@dataclass(frozen=True)
class Entry:
    tag: str
    digest: str
    path: str

    def line(self) -> str:
        return f"@{self.tag} {self.digest} {self.path}"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(path: Path) -> list[Entry]:
    if not path.exists():
        return []
    entries = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _LINE.match(line)
        if not match:
            raise ManifestError(f"{path}:{number}: malformed line {line!r}")
        entries.append(Entry(match["tag"], match["digest"], match["path"]))
    return entries


def wanted(db: Path, plan: Plan, tag: str) -> tuple[list[Entry], list[str]]:
    """The lines `tag` has now, and the released scripts (by released path) that are gone."""
    entries, gone = [], []
    for change in plan.released_with(tag):
        for kind in SCRIPT_KINDS:
            script, released = change.path(db, kind), f"{kind}/{change.name}.sql"
            if script.exists():
                entries.append(Entry(tag, _sha256(script.read_bytes()), released))
            else:
                gone.append(released)
    entries.append(Entry(tag, _sha256(plan.text_through(tag).encode()), PLAN_ENTRY))
    return entries, gone


def _tag_order(entries: list[Entry]) -> list[str]:
    order: list[str] = []
    for entry in entries:
        if not order or order[-1] != entry.tag:
            order.append(entry.tag)
    return order


def compare(db: Path, plan: Plan, tag: str, written: list[Entry]) -> list[str]:
    """How the written lines of `tag` differ from the released files."""
    now, gone = wanted(db, plan, tag)
    problems = [f"@{tag} {path}: the released script is gone" for path in gone]
    have = {e.path: e for e in written}
    if len(have) != len(written):
        problems.append(f"@{tag}: a path has more than one line")
    for entry in now:
        if entry.path not in have:
            problems.append(f"@{tag} {entry.path}: missing from db/{MANIFEST}")
        elif have[entry.path].digest != entry.digest:
            problems.append(f"@{tag} {entry.path}: released text changed")
    for path in have.keys() - {e.path for e in now} - set(gone):
        problems.append(f"@{tag} {path}: not a file released with @{tag}")
    if not problems and [e.line() for e in written] != [e.line() for e in now]:
        problems.append(f"@{tag}: lines are not in plan order")
    return problems


def check(db: Path) -> list[str]:
    """Every problem with db/released: an empty list means every released file is unchanged."""
    plan = read_plan(db)
    written = read_manifest(db / MANIFEST)
    order = _tag_order(written)
    problems = []
    if len(order) != len(set(order)):
        problems.append(f"db/{MANIFEST}: the lines of a tag are not together")
    if order != list(plan.tags)[: len(order)]:
        problems.append(f"db/{MANIFEST} tags {order} are not the plan's tags {list(plan.tags)}")
    for tag in plan.tags[len(order) :]:
        problems.append(f"@{tag}: no lines in db/{MANIFEST} (run `just release-plan`)")
    for tag in set(order) & set(plan.tags):
        problems += compare(db, plan, tag, [e for e in written if e.tag == tag])
    return problems


def sync_sources(db: Path, sql: Path, plan: Plan, released: set[str]) -> list[str]:
    """Copy each sql/<name>.sql to the deploy script of change <name> if not yet released."""
    notes = []
    for source in sorted(sql.glob("*.sql")):
        change = plan.newest(source.stem)
        if change is None:
            notes.append(f"{source}: no plan change named {source.stem!r}; add one")
            continue
        target = change.path(db, "deploy")
        if target.exists() and target.read_bytes() == source.read_bytes():
            continue
        if change.tag in released:
            notes.append(f"{source} differs from released {target}: rework it")
            continue
        shutil.copyfile(source, target)
        notes.append(f"copied {source} to {target}")
    return notes


def release(db: Path, sql: Path, retag_unreleased: bool) -> tuple[list[str], list[str]]:
    """Sync sources and write the lines of unwritten tags; returns (notes, refusals)."""
    plan = read_plan(db)
    manifest = db / MANIFEST
    written = read_manifest(manifest)
    kept = _tag_order(written)
    if retag_unreleased and plan.tags and kept and kept[-1] == plan.tags[-1]:
        kept.pop()
    if kept != list(plan.tags)[: len(kept)]:
        return [], [f"db/{MANIFEST} tags {kept} are not the plan's first tags {list(plan.tags)}"]
    notes = sync_sources(db, sql, plan, set(kept))
    refusals = [
        problem
        for tag in kept
        for problem in compare(db, plan, tag, [e for e in written if e.tag == tag])
    ]
    if refusals:
        return notes, refusals
    lines = manifest.read_text().splitlines(keepends=True) if manifest.exists() else [HEADER]
    first_dropped = next(
        (i for i, line in enumerate(lines) if (m := _LINE.match(line)) and m["tag"] not in kept),
        len(lines),
    )
    added = []
    for tag in plan.tags[len(kept) :]:
        entries, gone = wanted(db, plan, tag)
        if gone:
            return notes, [f"@{tag} {path}: the script does not exist" for path in gone]
        added += [e.line() + "\n" for e in entries]
        notes.append(f"@{tag}: wrote {len(entries)} lines")
    manifest.write_text("".join(lines[:first_dropped] + added))
    return notes or [f"db/{MANIFEST} is up to date"], []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Pin released migration scripts in db/released.")
    parser.add_argument("--db", type=Path, default=Path("db"))
    parser.add_argument("--sql", type=Path, default=Path("sql"))
    parser.add_argument("--retag-unreleased", action="store_true", help="rewrite the last tag")
    parser.add_argument("--check", action="store_true", help="only report problems")
    args = parser.parse_args(argv)
    if args.check:
        problems = check(args.db)
        print("\n".join(problems) or f"db/{MANIFEST} matches every released file")
        return 1 if problems else 0
    notes, refusals = release(args.db, args.sql, args.retag_unreleased)
    for note in notes:
        print(note)
    if refusals:
        print(f"refusing to rewrite released lines of db/{MANIFEST}:", file=sys.stderr)
        print("\n".join(refusals), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
