"""Two simultaneous submissions of one code on separate connections: one map, one job."""

from __future__ import annotations

import asyncio

import asyncpg
import msgspec
import pytest
from genji_api.errors import ConflictError
from genji_api.maps.creation import create_map
from genji_api.maps.models import MapCreateRequest

from tests.support.harness import eventually
from tests.support.seed import new_code, user
from tests.support.seed_maps import map_body
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def test_simultaneous_duplicate_codes_make_one_map_and_one_job(
    connect: Connect, owner: asyncpg.Connection
) -> None:
    code = new_code()
    request = msgspec.convert(map_body(code, await user(owner)), MapCreateRequest)
    first, second = await connect("owner"), await connect("owner")

    tx = first.transaction()
    await tx.start()
    created = await create_map(first, request, trace=None)

    async def duplicate() -> None:
        async with second.transaction():
            await create_map(second, request, trace=None)

    racing = asyncio.create_task(duplicate())
    # The overlap: the second insert is waiting on the first transaction's uncommitted row.
    pid = second.get_server_pid()
    await eventually(
        lambda: owner.fetchval(
            "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $1", pid
        ),
        what="the second submission to wait for the first",
    )
    assert not racing.done()
    await tx.commit()
    with pytest.raises(ConflictError):
        await racing

    assert await owner.fetchval("SELECT count(*) FROM core.maps WHERE code = $1", code) == 1
    assert (
        await owner.fetchval(
            "SELECT count(*) FROM playtests.meta WHERE map_id = $1", created.map_id
        )
        == 1
    )
    jobs = await owner.fetch("SELECT id FROM jobs WHERE action = 'api.playtest.create'")
    assert [row["id"] for row in jobs] == [created.job.id if created.job else None]
