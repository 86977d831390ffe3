"""Q23: the requester of a retry drops its connection once the retry has committed, without
reading the answer; the job still runs, and a later read through the API reports it."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
from urllib.parse import urlsplit
from uuid import UUID, uuid4

import asyncpg
import httpx
import pytest
from genji_api.auth import scopes
from genji_api.settings import ApiSettings
from genji_queue.complete import queue_complete
from genji_sdk import ClaimToken
from pgqueuer.models import Job

from tests.support.queue_helpers import claim_next
from tests.support.served_api import served_api

from .recovery_api import JOBS, MakeKey, audit, eventually, held_job, retry_body
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue


async def _send_and_drop(base_url: str, key: str, job_id: UUID, owner: asyncpg.Connection) -> None:
    """POST the retry on a raw connection, wait until its audit row is committed, then reset
    the connection without reading a byte of the answer."""
    url = urlsplit(base_url)
    body = json.dumps(retry_body("q23-1", 0)).encode()
    request = (
        f"POST {JOBS}/{job_id}/retry HTTP/1.1\r\n"
        f"Host: {url.netloc}\r\nX-API-KEY: {key}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    _, writer = await asyncio.open_connection(url.hostname, url.port)
    writer.write(request)
    await writer.drain()

    async def committed() -> bool:
        return await audit(owner, job_id) == [("retry", "accepted", 0)]

    await eventually(committed, deadline=10, what="the retry's audit row")
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def test_q23_a_retry_proceeds_after_its_requester_disconnects(
    api_settings: ApiSettings, owner: asyncpg.Connection, make_key: MakeKey
) -> None:
    job_id = await held_job(owner, "xp:q23")
    key = await make_key(scopes.JOBS_MANAGE, scopes.JOBS_READ, username="operator")
    with served_api(api_settings) as base_url:
        await _send_and_drop(base_url, key, job_id, owner)

        # A worker picks the requeued job up and finishes it.
        async def ready() -> Job | None:
            return await claim_next(owner, uuid4())

        claimed = await eventually(ready, deadline=10, what="the retried job to be claimable")
        assert claimed.queue_manager_id is not None
        token = ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)
        assert await queue_complete(owner, token)
        async with httpx.AsyncClient(base_url=base_url, headers={"X-API-KEY": key}) as later:
            status = (await later.get(f"{JOBS}/{job_id}")).json()
            details = (await later.get(f"{JOBS}/{job_id}/details")).json()
    assert status == {
        "id": str(job_id),
        "status": "succeeded",
        "error_code": None,
        "error_msg": None,
    }
    assert (details["state"], details["retry_generation"]) == ("succeeded", 1)
    assert await audit(owner, job_id) == [("retry", "accepted", 0)]
