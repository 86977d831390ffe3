"""Rollover and results announcements: champion roles reconciled to the current champion first,
then one announcement bound to the event's identity (start, end, reroll and results apart)."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.tournaments.edition import process_edition_transitions
from genji_api.tournaments.outbox_service import drain_tournament_outbox

from tests.bot.bot_stack import BotStack, eventually
from tests.bot.refused_writes import allow_updates, bindings, handler_failures, refuse_updates
from tests.support import seed
from tests.support import seed_tournaments as st

pytestmark = pytest.mark.queue

CHAMPION_ROLE = 10**18 + 700
SLOW_RETRIES = {"GENJI_QUEUE_RETRY_DELAYS": ",".join(["0.3"] * 10)}


async def _job(owner: asyncpg.Connection, event_key: str) -> str:
    job_id = await owner.fetchval("SELECT id FROM jobs WHERE event_key = $1", event_key)
    assert job_id is not None, f"no job {event_key}"
    return str(job_id)


async def _champion_role(owner: asyncpg.Connection, category_id: int) -> None:
    await owner.execute(
        "UPDATE tournaments.categories SET champion_role_id = $2 WHERE id = $1",
        category_id,
        CHAMPION_ROLE,
    )


def _announcements(stack: BotStack, job_id: str) -> list[dict[str, Any]]:
    return stack.recorder.sends(
        job_id=job_id, destination=f"channel:{stack.settings.channels.tournament_announcements}"
    )


def _roles(stack: BotStack, job_id: str) -> list[tuple[int, list[int], list[int]]]:
    return [
        (op["user_id"], op["add"], op["remove"])
        for op in stack.recorder.operations("roles")
        if op["job_id"] == job_id
    ]


@pytest.mark.parametrize("categories", [1, 0], ids=["start", "empty"])
async def test_bootstrap_start_is_announced_once_and_an_empty_start_is_a_noop(
    stack: BotStack, database: Database, categories: int
) -> None:
    for _ in range(categories):
        await st.category(stack.owner)
        await seed.game_map(stack.owner)
    response = await stack.http.post("/tournaments/editions/bootstrap")
    assert response.status_code == 201, response.text
    edition_id = response.json()["edition_id"]
    await drain_tournament_outbox(database)
    key = f"tournament:rollover:{edition_id}:start"
    job_id = await _job(stack.owner, key)
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")

    sent = _announcements(stack, job_id)
    assert [s["effect"] for s in sent] == [f"announcement:{key}"] * categories
    assert len(await bindings(stack.owner, job_id)) == categories
    assert _roles(stack, job_id) == []


async def test_deferred_results_set_roles_then_post_one_results_card(
    stack: BotStack, database: Database
) -> None:
    ended = await st.ended_edition(stack.owner, pending=True)
    assert ended.pending_completion_id is not None and ended.pending_user is not None
    await _champion_role(stack.owner, ended.category_id)
    await drain_tournament_outbox(database)  # start-only: one run still needs a verdict
    start_job = await _job(stack.owner, f"tournament:rollover:{ended.edition_id}")
    verify = await stack.http.patch(
        f"/tournaments/completions/{ended.pending_completion_id}/verify",
        json={"verified_by": ended.runner_up},
    )
    assert verify.status_code == 200, verify.text
    await drain_tournament_outbox(database)  # the last verdict is in: the deferred results
    results_key = f"tournament:results:{ended.edition_id}"
    results_job = await _job(stack.owner, results_key)
    # The card is delivered but its binding cannot complete, so the job runs again.
    await refuse_updates(
        stack.owner,
        "public.effect_bindings",
        "NEW.state = 'completed' AND NEW.effect_key LIKE 'results-card:%'",
    )
    async with stack.worker(**SLOW_RETRIES):
        await stack.until_status(start_job, "succeeded")
        await eventually(
            lambda: handler_failures(stack.owner, results_job), what="a failed attempt"
        )
        await allow_updates(stack.owner)
        await stack.until_status(results_job, "succeeded")

    assert len(_announcements(stack, start_job)) == 1
    assert _roles(stack, start_job) == []  # results pending: nobody is crowned yet
    # The role step ran on both attempts; the role was given once.
    role_step = f"champion-role:{ended.edition_id}:{ended.category_id}"
    assert stack.recorder.recorder.count(role_step, "done", job_id=results_job) == 2
    assert _roles(stack, results_job) == [(ended.winner, [CHAMPION_ROLE], [])]
    [card] = _announcements(stack, results_job)
    assert card["effect"] == f"results-card:{results_key}"
    assert card["message"]["mentions"]["users"] == [ended.winner]
    ops = [(op["op"], op["job_id"]) for op in stack.recorder.operations()]
    assert ops.index(("roles", results_job)) < ops.index(("send", results_job))
    assert CHAMPION_ROLE in stack.recorder.roles_of(ended.winner)
    assert CHAMPION_ROLE not in stack.recorder.roles_of(ended.pending_user)


async def test_q09_repeated_reroll_announces_each_reroll_once(stack: BotStack) -> None:
    live = await st.live_edition(stack.owner, maps=3)
    keys = []
    for _ in range(2):
        response = await stack.http.post(
            f"/tournaments/categories/{live.category_id}/reroll-active"
        )
        assert response.status_code == 201, response.text
        keys.append(f"tournament:active-reroll:{response.json()['cycle_id']}")
    job_ids = [await _job(stack.owner, key) for key in keys]
    # The first reroll's announcement is delivered but its binding cannot complete: it retries.
    await refuse_updates(
        stack.owner,
        "public.effect_bindings",
        f"NEW.state = 'completed' AND NEW.effect_key LIKE 'announcement:{keys[0]}%'",
    )
    async with stack.worker(**SLOW_RETRIES):
        await eventually(lambda: handler_failures(stack.owner, job_ids[0]), what="a failed attempt")
        await allow_updates(stack.owner)
        for job_id in job_ids:
            await stack.until_status(job_id, "succeeded")

    for key, job_id in zip(keys, job_ids, strict=True):
        [sent] = _announcements(stack, job_id)
        assert sent["effect"] == f"announcement:{key}"
        [binding] = await bindings(stack.owner, job_id)
        assert (binding["state"], binding["message_id"]) == ("completed", sent["message_id"])


async def test_q09_an_old_rollover_retry_keeps_the_newer_champion(
    stack: BotStack, database: Database
) -> None:
    ended = await st.ended_edition(stack.owner)
    await _champion_role(stack.owner, ended.category_id)
    await drain_tournament_outbox(database)
    old_job = await _job(stack.owner, f"tournament:rollover:{ended.edition_id}")
    # The old rollover fails before its role change and retries after the newer one ran.
    stack.recorder.command(
        f"api.tournament.rollover:champion-role:{ended.edition_id}:{ended.category_id}", "fail:1"
    )
    async with stack.worker(GENJI_QUEUE_RETRY_DELAYS="4,4,4"):
        await eventually(lambda: handler_failures(stack.owner, old_job), what="a failed attempt")
        newer_champion = await seed.user(stack.owner)
        await st.submission(
            stack.owner,
            ended.next_cycle_id,
            newer_champion,
            ended.map_ids[1],
            30.0,
            video="https://v.example/3",
        )
        await stack.owner.execute(
            "UPDATE tournaments.editions SET ends_at = now() - interval '1 second' WHERE id = $1",
            ended.next_edition_id,
        )
        await process_edition_transitions(database)
        await drain_tournament_outbox(database)
        new_job = await _job(stack.owner, f"tournament:rollover:{ended.next_edition_id}")
        await stack.until_status(new_job, "succeeded")
        assert await stack.status(old_job) == "queued"  # its retry comes after the newer result
        await stack.until_status(old_job, "succeeded")

    assert _roles(stack, new_job) == [(newer_champion, [CHAMPION_ROLE], [])]
    role_step = f"champion-role:{ended.edition_id}:{ended.category_id}"
    assert stack.recorder.recorder.count(role_step, "done", job_id=old_job) == 1
    assert _roles(stack, old_job) == []
    assert CHAMPION_ROLE in stack.recorder.roles_of(newer_champion)
    assert CHAMPION_ROLE not in stack.recorder.roles_of(ended.winner)
    assert len(_announcements(stack, old_job)) == 1
    assert len(_announcements(stack, new_job)) == 1
