"""Q01/Q02 for every producer: its business change and its jobs commit together or not at all.

Each producer runs through its real route (or, for the API worker's producers, its service) on
the real enqueue path. Failures are injected in the database itself, so nothing in the
application knows about them: at COMMIT (Q01, the business transaction rolls back) and at the
insertion of the queue row (Q02). An independent connection then counts every business, job,
receipt and queue row.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings
from genji_sdk import REGISTRY
from litestar.testing import AsyncTestClient

from tests.support.producer_cases import CASES, ProducerCase, ProducerEnv

from .db_state import FailurePoint, inject_failure, job_events, remove_failure, table_counts

pytestmark = pytest.mark.queue


@pytest.fixture
async def env(
    api: AsyncTestClient,
    owner: asyncpg.Connection,
    api_settings: ApiSettings,  # type: ignore[type-arg]
) -> AsyncIterator[ProducerEnv]:
    # The served app's pool lives on the test client's own event loop; producers called as
    # services get a pool of this loop, on the same database.
    pool = await create_pool(api_settings.database_url, max_size=3)
    try:
        yield ProducerEnv(api=api, owner=owner, database=Database(pool), settings=api_settings)
    finally:
        await pool.close()


async def _run(case: ProducerCase, env: ProducerEnv, state: object) -> int | None:
    """The HTTP status, or None when a service call returned without raising."""
    response = await case.act(env, state)
    return None if response is None else response.status_code


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_producer_commits_its_jobs(case: ProducerCase, env: ProducerEnv) -> None:
    state = await case.setup(env)
    before = await job_events(env.owner)
    status = await _run(case, env, state)
    assert status in (None, case.ok)
    enqueued = (await job_events(env.owner))[len(before) :]
    assert case.events <= set(enqueued), f"{case.name} enqueued {enqueued}"
    orphans = await env.owner.fetchval(
        "SELECT count(*) FROM jobs j WHERE j.event_key IS NOT NULL AND NOT EXISTS "
        "(SELECT 1 FROM pgqueuer q WHERE q.id = j.queue_job_id) AND NOT EXISTS "
        "(SELECT 1 FROM pgqueuer_log l WHERE l.job_id = j.queue_job_id)"
    )
    assert orphans == 0


FAILURES = [
    pytest.param(case, where, id=f"{acceptance_id}-{case.name}")
    for case in CASES
    for where, acceptance_id in (("commit", "Q01"), ("queue_insert", "Q02"))
]


@pytest.mark.parametrize(("case", "where"), FAILURES)
async def test_producer_failure_leaves_nothing(
    case: ProducerCase, where: FailurePoint, env: ProducerEnv
) -> None:
    state = await case.setup(env)
    before = await table_counts(env.owner)
    await inject_failure(env.owner, where)
    try:
        try:
            status = await _run(case, env, state)
        except Exception as error:  # a service call reports the failure by raising
            assert "injected failure" in str(error)
        else:
            assert status is not None and status >= 500, f"{case.name} reported success"
    finally:
        await remove_failure(env.owner)
    assert await table_counts(env.owner) == before


def test_every_entrypoint_has_a_producer_case_q26() -> None:
    """Each of the 24 entrypoints is produced by at least one case proven above."""
    produced = set().union(*(case.events for case in CASES))
    assert produced == set(REGISTRY.names())
