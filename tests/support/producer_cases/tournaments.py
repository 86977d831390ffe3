"""Tournament producers: the outbox drain (one case per branch) and the live-map reroll."""

from __future__ import annotations

from typing import Any

import httpx
from genji_api.tournaments.outbox_service import drain_tournament_outbox

from tests.support import seed
from tests.support import seed_tournaments as st

from .case import ProducerCase, ProducerEnv


async def _drain(env: ProducerEnv, _: Any) -> None:
    await drain_tournament_outbox(env.database)


async def _bootstrapped(env: ProducerEnv) -> None:
    await st.category(env.owner)
    await seed.game_map(env.owner)
    response = await env.api.post("/api/v3/tournaments/editions/bootstrap")
    assert response.status_code == 201, response.text


async def _start_only(env: ProducerEnv) -> None:
    await st.ended_edition(env.owner, pending=True)


async def _combined(env: ProducerEnv) -> None:
    await st.ended_edition(env.owner)


async def _deferred(env: ProducerEnv) -> None:
    await st.ended_edition(env.owner, start_announced=True)


async def _live(env: ProducerEnv) -> st.LiveEdition:
    return await st.live_edition(env.owner)


async def _reroll(env: ProducerEnv, live: st.LiveEdition) -> httpx.Response:
    return await env.api.post(f"/api/v3/tournaments/categories/{live.category_id}/reroll-active")


CASES = [
    ProducerCase(
        name="outbox-bootstrap-start",
        events=frozenset({"api.tournament.rollover"}),
        setup=_bootstrapped,
        act=_drain,
    ),
    ProducerCase(
        name="outbox-drain-start-only",
        events=frozenset({"api.tournament.rollover"}),
        setup=_start_only,
        act=_drain,
    ),
    ProducerCase(
        name="outbox-drain-combined",
        events=frozenset({"api.tournament.rollover", "api.xp.grant"}),
        setup=_combined,
        act=_drain,
    ),
    ProducerCase(
        name="outbox-drain-deferred-results",
        events=frozenset({"api.tournament.results", "api.xp.grant"}),
        setup=_deferred,
        act=_drain,
    ),
    ProducerCase(
        name="tournament-reroll",
        events=frozenset({"api.tournament.rollover"}),
        setup=_live,
        act=_reroll,
    ),
]
