"""The migrated schema equals the committed db/schema.sql (regenerate with `just schema-dump`)."""

from pathlib import Path

import pytest
from genji_api.migrate import apply_plan
from genji_api.schema_dump import dump_schema

pytestmark = pytest.mark.queue

COMMITTED = Path(__file__).resolve().parents[2] / "db" / "schema.sql"


def test_q15_migrated_schema_matches_committed_dump(empty_database: str) -> None:
    apply_plan(empty_database)
    assert dump_schema(empty_database) == COMMITTED.read_text(), (
        "db/schema.sql is stale: run `just schema-dump` and commit the result"
    )
