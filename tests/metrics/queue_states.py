"""A queue of XP grants in every state, for the depth readers to count."""

from uuid import uuid4

import asyncpg

from tests.support.queue_helpers import claim_next, enqueue_xp


async def grants_in_every_state(conn: asyncpg.Connection, jobs: int) -> None:
    """`jobs` grants of one entity each (queue ids 1..jobs): job 1 held, job 2 running, the
    last one delayed an hour, job 3 ready for 90 seconds and the rest ready now."""
    for n in range(jobs):
        await enqueue_xp(conn, f"xp:{n}", grant_id=n, user_id=n + 1)
    held = await claim_next(conn, uuid4())
    assert held is not None
    await conn.execute(
        "SELECT queue_hold($1, $2, $3, '{}')", held.id, held.queue_manager_id, held.updated
    )
    assert await claim_next(conn, uuid4()) is not None  # one running (one per entrypoint)
    await conn.execute(
        "UPDATE pgqueuer SET execute_after = now() + interval '1 hour' WHERE id = $1", jobs
    )
    await conn.execute(
        "UPDATE pgqueuer SET execute_after = now() - interval '90 seconds' WHERE id = 3"
    )
