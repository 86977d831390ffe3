"""A function change is a new plan change: sql/ sources are pinned to the change deploying them.

db/sql-versions records, for every plan change that includes a sql/ file, the sha256 of the
version it deployed. The newest change including a file must have deployed its current text,
so editing a source without a plan change that re-includes it fails here.
"""

import hashlib
import re
from pathlib import Path

import pytest
from genji_api.migrate import read_plan

pytestmark = pytest.mark.queue

ROOT = Path(__file__).resolve().parents[2]
DB = ROOT / "db"
INCLUDE = re.compile(r"^\\ir\s+\.\./\.\./(sql/\S+\.sql)\s*$", re.MULTILINE)


def _includes() -> dict[tuple[str, str], None]:
    found: dict[tuple[str, str], None] = {}
    for change in read_plan(DB):
        for source in INCLUDE.findall((DB / "deploy" / f"{change.name}.sql").read_text()):
            found[(change.name, source)] = None
    return found


def _recorded() -> dict[tuple[str, str], str]:
    recorded = {}
    for line in (DB / "sql-versions").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            change, source, digest = line.split()
            recorded[(change, source)] = digest
    return recorded


def test_every_included_source_version_is_recorded() -> None:
    assert set(_recorded()) == set(_includes())


def test_every_source_is_deployed_by_some_change() -> None:
    deployed = {source for _, source in _includes()}
    assert deployed == {f"sql/{p.name}" for p in (ROOT / "sql").glob("*.sql")}


def test_the_newest_change_of_each_source_deployed_its_current_text() -> None:
    recorded = _recorded()
    newest: dict[str, str] = {}
    for change, source in _includes():  # plan order: later changes overwrite earlier ones
        newest[source] = change
    for source, change in newest.items():
        current = hashlib.sha256((ROOT / source).read_bytes()).hexdigest()
        assert recorded[(change, source)] == current, (
            f"{source} differs from what {change} deployed: add a plan change that re-includes "
            f"it and append its line to db/sql-versions"
        )
