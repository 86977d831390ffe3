"""The migrated schema equals the committed db/schema.sql (regenerate with `just schema-dump`)."""

import pytest
from genji_api.migrate import apply_plan
from genji_api.migrations.location import db_dir
from genji_devstack.schema_dump import dump_schema

pytestmark = pytest.mark.queue

COMMITTED = db_dir() / "schema.sql"


def test_q15_migrated_schema_matches_committed_dump(empty_database: str) -> None:
    apply_plan(empty_database)
    assert dump_schema(empty_database) == COMMITTED.read_text(), (
        "db/schema.sql is stale: run `just schema-dump` and commit the result"
    )
