"""Q26 cases of tournaments: review cards, verdicts, rollover and results, tournament OCR.

The rollover and results jobs of an ended edition come from the tournament outbox drain, which
the served API worker's schedule runs; a reroll comes from its route.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.bot.q26_flow import Flow, Q26Case, channel
from tests.support import seed, seed_ocr_jobs
from tests.support import seed_completions as sc
from tests.support import seed_tournaments as st

from .q26_feeds import check_xp_posted

CHAMPION_ROLE = 1_400_000_000_000_000_001


@dataclass(frozen=True)
class Ranked:
    """An ended edition's category champion (and the one who is not)."""

    edition_id: int
    winner: int
    runner_up: int


async def check_completion_created(flow: Flow, body: dict[str, Any]) -> None:
    job = await flow.consumed_job("api.tournament.completion.created")
    destination = channel(flow.channels.verification_queue)
    card = flow.sent_once(job, destination)
    binding = await flow.binding(job, destination)
    assert (binding["state"], binding["message_id"]) == ("completed", card["message_id"])


async def _verification_changed_check(flow: Flow, tc_id: int) -> None:
    job = await flow.consumed_job("api.tournament.verification.changed")
    # An acknowledgement only: no Discord message, no effect of any kind.
    assert flow.sends(job) == []
    assert await flow.receipts(job) == []


def announced(key_prefix: str) -> Any:
    """The rollover job whose key starts with `key_prefix` posted its announcement card."""

    async def check(flow: Flow, _: Any) -> None:
        job = await flow.consumed_job("api.tournament.rollover", key_prefix)
        flow.sent_once(job, channel(flow.channels.tournament_announcements))

    return check


async def _results_produce(flow: Flow) -> Ranked:
    """An ended edition whose start was announced: the drain publishes its results alone."""
    ended = await st.ended_edition(flow.env.owner, start_announced=True)
    await flow.env.owner.execute(
        "UPDATE tournaments.categories SET champion_role_id = $2 WHERE id = $1",
        ended.category_id,
        CHAMPION_ROLE,
    )
    return Ranked(ended.edition_id, ended.winner, ended.runner_up)


async def check_results(flow: Flow, ended: Ranked) -> None:
    job = await flow.consumed_job(
        "api.tournament.results", key=f"tournament:results:{ended.edition_id}"
    )
    flow.sent_once(job, channel(flow.channels.tournament_announcements))
    assert CHAMPION_ROLE in flow.stack.recorder.roles_of(ended.winner)
    assert CHAMPION_ROLE not in flow.stack.recorder.roles_of(ended.runner_up)


async def _ocr_requested_produce(flow: Flow) -> int:
    """A screenshot-only run slower than the player's PB on the live tournament map."""
    owner = flow.env.owner
    cycle = await sc.active_cycle(owner)
    player = await seed.user(owner)
    await seed.overwatch_name(owner, player, f"Runner{player % 100000}")
    await seed.verified_completion(owner, cycle.map_id, player, time=40.0)
    body = {
        "code": cycle.code,
        "user_id": player,
        "time": seed_ocr_jobs.RUN_TIME,
        "screenshot": seed_ocr_jobs.screenshot("ocr-match"),
    }
    response = await flow.env.api.post("/api/v3/completions/", json=body)
    assert response.status_code == 201, response.text
    return player


async def _ocr_requested_check(flow: Flow, player: int) -> None:
    await flow.consumed_job("tournament.ocr.requested")
    status = await flow.env.owner.fetchval(
        "SELECT status FROM tournaments.completions WHERE user_id = $1", player
    )
    assert status == "verified"
    await flow.consumed_job("api.tournament.verification.changed")
    # Participation XP on the first verification, announced in the XP channel.
    await check_xp_posted(flow, player)


CASES = [
    Q26Case(
        "api.tournament.completion.created",
        lambda flow: flow.produce("tournament-submit-video"),
        check_completion_created,
    ),
    Q26Case(
        "api.tournament.verification.changed",
        lambda flow: flow.produce("tournament-verify"),
        _verification_changed_check,
    ),
    Q26Case(
        "api.tournament.rollover",
        lambda flow: flow.produce("tournament-reroll"),
        announced("tournament:active-reroll:"),
    ),
    Q26Case("api.tournament.results", _results_produce, check_results),
    Q26Case("tournament.ocr.requested", _ocr_requested_produce, _ocr_requested_check),
]
