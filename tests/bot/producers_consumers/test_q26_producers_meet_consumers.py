"""Q26: every entrypoint's real producer and real consumer, together through the queue.

Each case seeds what its producer needs, calls it through the served API (a route, or the API
worker's continuation or outbox drain behind it), then runs the bot's worker until the job the
producer enqueued succeeded, and checks the consumer's effect on durable state: the recorded
Discord world, bindings and receipts, domain rows.
"""

from __future__ import annotations

import pytest
from genji_sdk import REGISTRY

from tests.bot.q26_flow import Flow, Q26Case

from . import q26_completions, q26_feeds, q26_playtests, q26_tournaments

# Under xdist the module's tests stay on one worker, which builds its module fixtures once.
pytestmark = [pytest.mark.queue, pytest.mark.xdist_group("bot-producers-meet-consumers")]

CASES: list[Q26Case] = [
    *q26_completions.CASES,
    *q26_playtests.CASES,
    *q26_feeds.CASES,
    *q26_tournaments.CASES,
]


def test_q26_every_registered_entrypoint_has_one_case() -> None:
    events = [case.event for case in CASES]
    assert sorted(events) == sorted(REGISTRY.names())
    assert len(events) == len(set(events))


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("case", CASES, ids=[f"Q26-{case.event}" for case in CASES])
async def test_producer_and_consumer_run_together(flow: Flow, case: Q26Case) -> None:
    state = await case.produce(flow)
    async with flow.stack.worker():
        await case.check(flow, state)
