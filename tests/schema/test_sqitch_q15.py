"""Q15: the real Sqitch deploys, verifies and wholly reverts the plan, giving yoyo's schema."""

import pytest
from genji_api.migrations.location import db_dir
from genji_devstack.schema_dump import dump_schema

from tests.support.testdb import Database

from .sqitch_cli import sqitch

pytestmark = pytest.mark.queue

DB = db_dir()
COMMITTED = DB / "schema.sql"


def test_q15_sqitch_deploys_verifies_reverts_and_matches_yoyo(
    empty_database: str, db: Database
) -> None:
    never_migrated = dump_schema(empty_database)
    sqitch(DB, "deploy", "--verify", dsn=empty_database)
    assert "Verify successful" in sqitch(DB, "verify", dsn=empty_database)
    deployed = dump_schema(empty_database)

    sqitch(DB, "revert", "-y", dsn=empty_database)
    assert dump_schema(empty_database) == never_migrated, "a revert script left something behind"

    sqitch(DB, "deploy", dsn=empty_database)
    assert dump_schema(empty_database) == deployed
    assert deployed == dump_schema(db.dsn), "Sqitch and yoyo deploy different schemas"
    assert deployed == COMMITTED.read_text()
