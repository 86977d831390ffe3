"""Q26: legacy-shaped payloads through the real enqueue path and the real consumers.

Each bot event's payload, shaped as the legacy producer published it, is enqueued
with genji_queue's enqueue_job inside one transaction with the domain rows it refers to. A
shape the current contract accepts is consumed by the real consumer to success, with the same
durable effect its current producer's job has. A shape it no longer accepts is refused at
enqueue with an error naming the missing field, nothing of the transaction commits, and the
worker's decoder would hold it as malformed too.
"""

from __future__ import annotations

import json

import msgspec
import pytest
from genji_queue.enqueue import enqueue_job_raw
from genji_queue.errors import InvalidJobRequestError
from genji_sdk import REGISTRY, MalformedPayloadError

from tests.bot.q26_flow import Flow

from .q26_legacy import FIXTURES, Legacy, LegacyFixture

# Under xdist the module's tests stay on one worker, which builds its module fixtures once.
pytestmark = [pytest.mark.queue, pytest.mark.xdist_group("bot-legacy-payloads")]

ACCEPTED = [fixture for fixture in FIXTURES if fixture.refused_for is None]
REFUSED = [fixture for fixture in FIXTURES if fixture.refused_for is not None]


async def _enqueue_in_transaction(flow: Flow, fixture: LegacyFixture) -> Legacy:
    owner = flow.env.owner
    async with owner.transaction():
        legacy = await fixture.build(flow, owner)
        await enqueue_job_raw(
            owner,
            event_name=fixture.event,
            payload_json=json.dumps(legacy.payload),
            event_key=legacy.event_key,
            entity_key=legacy.entity_key,
            schema_version=REGISTRY.get(fixture.event).payload_version,
        )
    return legacy


def test_q26_every_bot_event_has_a_legacy_fixture() -> None:
    events = sorted(fixture.event for fixture in FIXTURES)
    assert events == sorted(spec.name for spec in REGISTRY.owned_by("bot"))
    for fixture in FIXTURES:
        assert (fixture.check is None) == (fixture.refused_for is not None), fixture.event


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("fixture", ACCEPTED, ids=[f"Q26-legacy-{f.event}" for f in ACCEPTED])
async def test_legacy_payload_is_consumed(flow: Flow, fixture: LegacyFixture) -> None:
    legacy = await _enqueue_in_transaction(flow, fixture)
    assert fixture.check is not None
    async with flow.stack.worker():
        await fixture.check(flow, legacy.state)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("fixture", REFUSED, ids=[f"Q26-legacy-{f.event}" for f in REFUSED])
async def test_legacy_payload_without_its_identity_is_refused(
    flow: Flow, fixture: LegacyFixture
) -> None:
    built: list[Legacy] = []

    async def build(flow: Flow, conn: object) -> Legacy:
        legacy = await fixture.build(flow, flow.env.owner)
        built.append(legacy)
        return legacy

    refusing = LegacyFixture(fixture.event, build, refused_for=fixture.refused_for)
    with pytest.raises(InvalidJobRequestError) as refused:
        await _enqueue_in_transaction(flow, refusing)
    assert f"{fixture.refused_for}" in str(refused.value)
    (legacy,) = built
    owner = flow.env.owner
    assert (
        await owner.fetchval("SELECT count(*) FROM jobs WHERE event_key = $1", legacy.event_key)
        == 0
    )
    assert legacy.row is not None
    table, row_id = legacy.row
    assert await owner.fetchval(f"SELECT count(*) FROM {table} WHERE id = $1", row_id) == 0
    # Had such a message reached the queue some other way, the worker would hold it.
    with pytest.raises(MalformedPayloadError, match=fixture.refused_for):
        REGISTRY.decode(fixture.event, msgspec.json.encode(legacy.payload))
