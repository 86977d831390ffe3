"""A tournament run under manual review gets one Accept/Reject card, mirrored onto the run; its
verdicts are acknowledged without any message."""

from __future__ import annotations

import pytest

from tests.bot.bot_stack import BotStack, eventually
from tests.bot.refused_writes import allow_updates, bindings, handler_failures, refuse_updates
from tests.support import seed
from tests.support import seed_completions as sc

pytestmark = pytest.mark.queue

SLOW_RETRIES = {"GENJI_QUEUE_RETRY_DELAYS": ",".join(["0.3"] * 10)}


async def _card_message(stack: BotStack, tc_id: int) -> int | None:
    value: int | None = await stack.owner.fetchval(
        "SELECT verification_message_id FROM tournaments.completions WHERE id = $1", tc_id
    )
    return value


async def test_review_card_is_posted_once_and_mirrored_onto_the_run(stack: BotStack) -> None:
    cycle = await sc.active_cycle(stack.owner)
    player = await seed.user(stack.owner)
    await seed.verified_completion(stack.owner, cycle.map_id, player, time=50.0)
    # Slower than the personal best, with a video: a tournament-only run for manual review.
    response = await stack.http.post(
        "/completions/",
        json={
            "code": cycle.code,
            "user_id": player,
            "time": 55.5,
            "screenshot": sc.SCREENSHOT,
            "video": sc.VIDEO,
        },
    )
    assert response.status_code == 201, response.text
    job_id = response.json()["job_status"]["id"]
    tc_id = await stack.owner.fetchval(
        "SELECT id FROM tournaments.completions WHERE user_id = $1", player
    )
    await refuse_updates(
        stack.owner, "tournaments.completions", "NEW.verification_message_id IS NOT NULL"
    )
    async with stack.worker(**SLOW_RETRIES):
        await eventually(lambda: handler_failures(stack.owner, job_id), what="a failed attempt")
        [binding] = await bindings(stack.owner, job_id)
        assert binding["state"] == "intended"
        assert await _card_message(stack, tc_id) is None
        assert len(stack.recorder.sends(job_id=job_id)) == 1
        await allow_updates(stack.owner)
        await stack.until_status(job_id, "succeeded")

    [sent] = stack.recorder.sends(job_id=job_id)
    assert sent["destination"] == f"channel:{stack.settings.channels.verification_queue}"
    assert sent["message"]["mentions"] == {"users": [], "roles": []}
    [binding] = await bindings(stack.owner, job_id)
    assert (binding["state"], binding["message_id"]) == ("completed", sent["message_id"])
    assert await _card_message(stack, tc_id) == sent["message_id"]


async def _core_verdict(stack: BotStack, completion_id: int, verified: bool, by: int) -> None:
    response = await stack.http.put(
        f"/completions/{completion_id}/verification",
        json={"verified": verified, "verified_by": by},
    )
    assert response.status_code == 200, response.text


async def test_q09_core_verdicts_propagate_as_distinct_acknowledged_jobs(stack: BotStack) -> None:
    cycle = await sc.active_cycle(stack.owner)
    player, moderator = await seed.user(stack.owner), await seed.user(stack.owner)
    tc_id = await sc.tournament_completion(stack.owner, cycle, player)
    core_id = await sc.pending_completion(
        stack.owner, cycle.map_id, player, time=90.0, tournament_completion_id=tc_id
    )
    # reject -> verify -> reject -> verify on the core run: the tournament run is rejected, then
    # verified (terminal); the later core verdicts are no new tournament transition.
    for verified in (False, True, False, True):
        await _core_verdict(stack, core_id, verified, moderator)
    verdicts = await stack.owner.fetch(
        "SELECT id, verified FROM tournaments.verdicts WHERE tournament_completion_id = $1 "
        "ORDER BY id",
        tc_id,
    )
    assert [v["verified"] for v in verdicts] == [False, True]
    jobs = await stack.jobs("api.tournament.verification.changed")
    assert [j["event_key"] for j in jobs] == [
        f"tournament:verification:{v['id']}" for v in verdicts
    ]
    # A retransmitted verify resolves to the job of the verdict it repeats.
    again = await stack.http.patch(
        f"/tournaments/completions/{tc_id}/verify", json={"verified_by": moderator}
    )
    assert again.status_code == 200, again.text
    assert again.json()["id"] == str(jobs[1]["id"])
    assert len(await stack.jobs("api.tournament.verification.changed")) == 2

    async with stack.worker():
        for job in jobs:
            await stack.until_status(job["id"], "succeeded")
    for job in jobs:
        assert stack.recorder.sends(job_id=str(job["id"])) == []
        assert await bindings(stack.owner, job["id"]) == []
