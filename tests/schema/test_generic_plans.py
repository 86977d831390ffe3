"""The functions whose statements take arrays run on generic plans, planned once per session:
the plan cache's cost comparison would otherwise find the custom plan cheaper at every call and
plan the statement afresh each time (a claim, a flush of completions, a small batch)."""

import pytest

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


@pytest.mark.parametrize(
    "function",
    [
        "queue_claim(uuid, text[], integer, integer, interval)",
        "queue_complete_many(bigint[], uuid[], timestamptz[])",
        "enqueue_jobs(text[], jsonb[], text[], text[], uuid[], integer[], jsonb)",
    ],
)
async def test_functions_of_array_statements_plan_them_once_per_session(
    connect: Connect, function: str
) -> None:
    owner = await connect()
    config = await owner.fetchval(
        "SELECT proconfig FROM pg_proc WHERE oid = $1::regprocedure", function
    )
    assert "plan_cache_mode=force_generic_plan" in config
