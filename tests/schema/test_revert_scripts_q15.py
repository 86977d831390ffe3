"""Q15: each change's revert script removes exactly what its deploy script added."""

import pytest
from genji_api.migrate import apply_plan, plan_migrations, rollback_plan
from genji_devstack.schema_dump import dump_schema

pytestmark = pytest.mark.queue

KEYS = [m.id for m in plan_migrations()]


def test_q15_reverting_each_change_restores_the_schema_before_it(empty_database: str) -> None:
    before = [dump_schema(empty_database)]
    for key in KEYS:
        assert apply_plan(empty_database, through=key) == [key]
        before.append(dump_schema(empty_database))
    before.pop()
    for key in reversed(KEYS):
        assert rollback_plan(empty_database, 1) == [key]
        assert dump_schema(empty_database) == before.pop(), f"reverting {key} left a difference"
