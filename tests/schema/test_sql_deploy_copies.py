"""Every function source sql/<name>.sql is installed by plan change <name>, verbatim.

The newest instance of change <name> deploys a byte-identical copy of the source, so the text a
database runs is the text under review. Released instances stay as they were (db/released);
changing a function after release is a rework (docs/sql-api.md).
"""

import re
from pathlib import Path

import pytest
from genji_api.migrations.location import db_dir
from genji_api.migrations.plan import read_plan

pytestmark = pytest.mark.queue

ROOT = Path(__file__).resolve().parents[2]
DB = db_dir()
SOURCES = sorted((ROOT / "sql").glob("*.sql"))
PLAN = read_plan(DB)
FUNCTION = re.compile(r"^CREATE (?:OR REPLACE )?FUNCTION (\w+)\(", re.IGNORECASE | re.MULTILINE)
TRIGGER = re.compile(r"^CREATE (?:CONSTRAINT )?TRIGGER (\w+)", re.IGNORECASE | re.MULTILINE)
INCLUDE = re.compile(r"^\s*\\(?:i|ir|include|include_relative)\s", re.MULTILINE)


@pytest.mark.parametrize("source", SOURCES, ids=[s.name for s in SOURCES])
def test_newest_change_named_after_the_source_deploys_it_verbatim(source: Path) -> None:
    change = PLAN.newest(source.stem)
    assert change is not None, f"no plan change {source.stem!r} installs {source.name}"
    deploy = change.path(DB, "deploy")
    assert deploy.read_bytes() == source.read_bytes(), (
        f"{deploy.relative_to(ROOT)} is not a copy of sql/{source.name}: before release, "
        f"`just release-plan --retag-unreleased`; after, rework {change.name!r}"
    )


@pytest.mark.parametrize("source", SOURCES, ids=[s.name for s in SOURCES])
def test_function_changes_verify_and_revert_what_they_create(source: Path) -> None:
    instances = [c for c in PLAN.changes if c.name == source.stem]
    assert instances, f"no plan change {source.stem!r} installs {source.name}"
    for instance in instances:
        deploy, verify = (instance.path(DB, k).read_text() for k in ("deploy", "verify"))
        for name in FUNCTION.findall(deploy) + TRIGGER.findall(deploy):
            assert re.search(rf"\b{name}\b", verify), f"{instance.key} does not verify {name}"
    # Later instances revert to the previous text; the first one removes everything.
    deploy, revert = (instances[0].path(DB, k).read_text() for k in ("deploy", "revert"))
    for name in FUNCTION.findall(deploy):
        assert re.search(rf"^DROP FUNCTION {name}\(", revert, re.MULTILINE), name
    for name in TRIGGER.findall(deploy):
        assert re.search(rf"^DROP TRIGGER {name} ON ", revert, re.MULTILINE), name


def test_no_script_includes_another_file() -> None:
    including = [str(p.relative_to(DB)) for p in DB.rglob("*.sql") if INCLUDE.search(p.read_text())]
    assert including == [], "plan scripts must be self-contained (no psql \\i or \\ir)"
