"""Every button the bot posts, pressed through the stand-in of Discord on the real bot.

Each test starts as few bots as it can and presses many buttons: the presser is a moderator by
role (given in the stand-in, it comes with the interaction) or by id (MODERATOR_IDS), a player,
or an outsider; the answer is read from the interaction (always ephemeral, never in a channel).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from genji_api.completions.verification import verification_event_key
from genji_bot.discord.presses import NOT_A_MODERATOR, STALE_MODAL
from genji_bot.features.completions_cards import reject_id, upvote_id, verify_id
from genji_devstack.discord_standin.control import StandInControl

from tests.bot.bot_stack import BotStack, eventually
from tests.bot.completion_flow import completion_row, player_on_new_map, submit
from tests.support import seed
from tests.support import seed_completions as sc
from tests.support.seed_maps import map_body

from .discord_bot import running_bot

pytestmark = pytest.mark.queue

EPHEMERAL = 64
MODAL = 9
IMMEDIATE = 4


def _custom_ids(message: dict[str, Any]) -> list[str]:
    return [
        str(component.get("custom_id"))
        for row in message.get("components", [])
        for component in row.get("components", [])
    ]


async def card(discord: StandInControl, channel_id: int, custom_id: str) -> dict[str, Any]:
    """The message in the channel carrying the button `custom_id`, once it is there."""

    async def find() -> dict[str, Any] | None:
        for message in await discord.messages(channel_id):
            if custom_id in _custom_ids(message):
                return message
        return None

    return await eventually(find, 30, f"a message with {custom_id}")


async def gone(discord: StandInControl, channel_id: int, message_id: str) -> None:
    async def deleted() -> bool:
        return all(m["id"] != message_id for m in await discord.messages(channel_id))

    await eventually(deleted, 30, f"message {message_id} to be deleted")


async def stack_card_id(stack: BotStack, edit_id: int) -> str:
    message_id = await stack.owner.fetchval(
        "SELECT message_id FROM maps.edit_requests WHERE id = $1", edit_id
    )
    return str(message_id)


async def _mentions_in(discord: StandInControl, channel_id: int, user_id: int) -> bool:
    return any(
        f"<@{user_id}>" in (m.get("content") or "") for m in await discord.messages(channel_id)
    )


async def answer_of(discord: StandInControl, interaction_id: int) -> str:
    """The bot's answer: the ephemeral followup, an immediate ephemeral message, or `modal:<id>`."""
    found = await discord.wait_interaction(
        interaction_id,
        lambda i: bool(i["followups"]) or i["callback_type"] in (IMMEDIATE, MODAL),
        within=30,
    )
    if found["callback_type"] == MODAL:
        return f"modal:{found['responses'][0]['data']['custom_id']}"
    shown = found["original"] if found["callback_type"] == IMMEDIATE else found["followups"][0]
    assert shown is not None and shown["flags"] & EPHEMERAL, found
    return str(shown["content"])


async def press(
    discord: StandInControl, message: dict[str, Any], custom_id: str, user_id: int
) -> int:
    interaction_id, _ = await discord.press(
        channel_id=int(message["channel_id"]),
        message_id=int(message["id"]),
        custom_id=custom_id,
        user_id=user_id,
    )
    return interaction_id


async def pressed(
    discord: StandInControl, message: dict[str, Any], custom_id: str, user_id: int
) -> str:
    return await answer_of(discord, await press(discord, message, custom_id, user_id))


async def submitted(
    discord: StandInControl, channel_id: int, modal: str, user_id: int, value: str
) -> str:
    assert modal.startswith("modal:"), modal
    interaction_id, _ = await discord.submit_modal(
        channel_id=channel_id,
        custom_id=modal.removeprefix("modal:"),
        user_id=user_id,
        values={"value": value},
    )
    return await answer_of(discord, interaction_id)


async def verdicts(stack: BotStack, completion_id: int) -> list[tuple[bool, int]]:
    rows = await stack.owner.fetch(
        "SELECT verified, verified_by FROM completions.verification_transitions "
        "WHERE completion_id = $1 ORDER BY id",
        completion_id,
    )
    return [(row["verified"], row["verified_by"]) for row in rows]


async def verdict_jobs(stack: BotStack, completion_id: int) -> int:
    ids = await stack.owner.fetch(
        "SELECT id FROM completions.verification_transitions WHERE completion_id = $1",
        completion_id,
    )
    count: int = await stack.owner.fetchval(
        "SELECT count(*) FROM jobs WHERE event_key = ANY($1::text[])",
        [verification_event_key(row["id"]) for row in ids],
    )
    return count


async def moderators(stack: BotStack, discord: StandInControl) -> tuple[int, int, int]:
    """A moderator by role, a moderator by id (MODERATOR_IDS), and an outsider."""
    by_role, by_id, outsider = [await seed.user(stack.owner) for _ in range(3)]
    await discord.set_roles(by_role, list(stack.settings.moderator_role_ids))
    return by_role, by_id, outsider


async def test_a_reject_modal_opened_before_the_bot_restarted_is_answered_after_it(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    by_role, _, _ = await moderators(stack, discord)
    queue = stack.settings.channels.verification_queue
    player = await player_on_new_map(stack)
    async with running_bot(stack, discord, tmp_path / "first.log"):
        run = (await submit(stack, player, 61.2))["completion_id"]
        review = await card(discord, queue, verify_id(run))
        modal = await pressed(discord, review, reject_id(run), by_role)
        assert modal.startswith(f"modal:completion:reject-reason:v1:{run}:")
    # The moderator types the reason while the bot restarts.
    async with running_bot(stack, discord, tmp_path / "second.log"):
        # A submit without the reason's field is refused, not taken as an empty reason.
        fieldless, _ = await discord.submit_modal(
            channel_id=queue,
            custom_id=modal.removeprefix("modal:"),
            user_id=by_role,
            values={"something-else": "Too slow"},
        )
        assert await answer_of(discord, fieldless) == STALE_MODAL
        assert await verdicts(stack, run) == []
        rejected = await submitted(discord, queue, modal, by_role, "Too slow")
        assert rejected.startswith("Rejected"), rejected
        assert await verdicts(stack, run) == [(False, by_role)]
        # A form the bot no longer knows is answered too.
        stale = await submitted(discord, queue, "modal:completion:old-form:1", by_role, "x")
    assert stale == STALE_MODAL


async def test_q09_completion_buttons_verify_reject_verify_upvotes_and_refusals_across_a_restart(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    by_role, by_id, outsider = await moderators(stack, discord)
    environment = {"MODERATOR_IDS": str(by_id)}
    queue = stack.settings.channels.verification_queue
    first, second = await player_on_new_map(stack), await player_on_new_map(stack)
    # The review cards are posted by a first bot, then pressed on a second one.
    async with running_bot(stack, discord, tmp_path / "first.log", environment):
        a = (await submit(stack, first, 61.2))["completion_id"]
        b = (await submit(stack, second, 72.4))["completion_id"]
        card_a = await card(discord, queue, verify_id(a))
        card_b = await card(discord, queue, verify_id(b))
    async with running_bot(stack, discord, tmp_path / "second.log", environment):
        # Outsiders are refused before anything reaches the API, Reject without its modal.
        assert await pressed(discord, card_a, verify_id(a), outsider) == NOT_A_MODERATOR
        assert await pressed(discord, card_a, reject_id(a), outsider) == NOT_A_MODERATOR
        assert await verdicts(stack, a) == []

        # Verify, reject, verify, pressed at once by two moderators: one verdict, one job.
        accept = await press(discord, card_a, verify_id(a), by_role)
        reject = await press(discord, card_a, reject_id(a), by_id)
        again = await press(discord, card_a, verify_id(a), by_id)
        modal = await answer_of(discord, reject)
        assert modal.startswith(f"modal:completion:reject-reason:v1:{a}:")
        # The two Verify presses race: whichever the API records first is the one verdict.
        answers = {
            by_role: await answer_of(discord, accept),
            by_id: await answer_of(discord, again),
        }
        (verdict,) = await verdicts(stack, a)
        winner = verdict[1]
        loser = by_id if winner == by_role else by_role
        already = f"This run was already verified by <@{winner}>; nothing was changed."
        assert verdict == (True, winner) and winner in answers
        assert answers[winner] == "Verified."
        assert answers[loser] in ("Verified.", already)
        rejected = await submitted(discord, queue, modal, by_id, "Too slow")
        assert rejected == already
        assert await verdicts(stack, a) == [(True, winner)]
        assert await verdict_jobs(stack, a) == 1

        # The verification job removed the review card and posted the run's card.
        await gone(discord, queue, card_a["id"])
        posted = await card(discord, stack.settings.channels.completions, upvote_id(a))
        assert int(posted["id"]) == (await completion_row(stack, a))["message_id"]
        voter = await seed.user(stack.owner)
        upvote = upvote_id(a)
        assert (
            await pressed(discord, posted, upvote, voter) == "Upvoted! This run now has 1 upvote."
        )
        assert await pressed(discord, posted, upvote, voter) == "You have already upvoted this run."
        assert await pressed(discord, posted, upvote, outsider) == (
            "Upvoted! This run now has 2 upvotes."
        )
        upvoters = await stack.owner.fetch(
            "SELECT user_id FROM completions.upvotes WHERE message_id = $1 ORDER BY id",
            int(posted["id"]),
        )
        assert [row["user_id"] for row in upvoters] == [voter, outsider]

        # Reject asks for the reason, and the submit rejects with it.
        modal = await pressed(discord, card_b, reject_id(b), by_role)
        assert await submitted(discord, queue, modal, by_role, "No end of run") == "Rejected."
        assert await verdicts(stack, b) == [(False, by_role)]
        row = await stack.owner.fetchrow(
            "SELECT verified, verified_by, reason FROM core.completions WHERE id = $1", b
        )
        assert dict(row) == {"verified": False, "verified_by": by_role, "reason": "No end of run"}
        await gone(discord, queue, card_b["id"])
        # Nothing the bot answered went to a channel: every answer was ephemeral.
        assert all(m["flags"] & EPHEMERAL == 0 for m in await discord.messages(queue))


async def _map_edit(stack: BotStack) -> int:
    requester = await seed.user(stack.owner)
    _, code = await seed.game_map(stack.owner)
    response = await stack.http.post(
        "/maps/map-edits/",
        json={
            "code": code,
            "proposed_changes": {"checkpoints": 12},
            "reason": "One checkpoint is missing",
            "created_by": requester,
        },
    )
    assert response.status_code == 201, response.text
    edit_id: int = response.json()["id"]
    return edit_id


async def _tournament_run(stack: BotStack) -> int:
    cycle = await sc.active_cycle(stack.owner)
    player = await seed.user(stack.owner)
    await seed.verified_completion(stack.owner, cycle.map_id, player, time=50.0)
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
    tc_id: int = await stack.owner.fetchval(
        "SELECT id FROM tournaments.completions WHERE user_id = $1", player
    )
    return tc_id


async def _playtest(stack: BotStack) -> tuple[int, int]:
    """A map submitted for playtesting: (its map id, its playtest id)."""
    creator = await seed.user(stack.owner)
    response = await stack.http.post("/maps", json=map_body(seed.new_code(), creator))
    assert response.status_code == 201, response.text
    map_id: int = response.json()["id"]
    playtest_id: int = await stack.owner.fetchval(
        "SELECT id FROM playtests.meta WHERE map_id = $1", map_id
    )
    return map_id, playtest_id


async def test_q26_map_edit_tournament_and_playtest_buttons_produce_the_jobs_the_bot_consumes(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    by_role, by_id, outsider = await moderators(stack, discord)
    queue = stack.settings.channels.verification_queue
    accepted, rejected = await _map_edit(stack), await _map_edit(stack)
    tc_id = await _tournament_run(stack)
    map_id, playtest_id = await _playtest(stack)
    async with running_bot(stack, discord, tmp_path / "bot.log", {"MODERATOR_IDS": str(by_id)}):
        # Map edits: Accept applies; a Reject opened meanwhile finds it resolved; Reject asks why.
        accept_id, reject_id_ = f"map_edit:accept:v1:{accepted}", f"map_edit:reject:v1:{accepted}"
        edit_card = await card(discord, queue, accept_id)
        assert await pressed(discord, edit_card, accept_id, outsider) == NOT_A_MODERATOR
        late = await pressed(discord, edit_card, reject_id_, by_id)
        assert await pressed(discord, edit_card, accept_id, by_role) == (
            "Accepted: the changes were applied and the requester is told."
        )
        assert await submitted(discord, queue, late, by_id, "Wrong count") == (
            "This edit request was already resolved; nothing was changed."
        )
        other = f"map_edit:reject:v1:{rejected}"
        modal = await pressed(discord, await card(discord, queue, other), other, by_id)
        assert await submitted(discord, queue, modal, by_id, "Not needed") == (
            "Rejected: the requester is told why."
        )
        resolutions = await stack.owner.fetch(
            "SELECT id, accepted, resolved_by, rejection_reason FROM maps.edit_requests "
            "WHERE id = ANY($1::int[]) ORDER BY id",
            [accepted, rejected],
        )
        assert [tuple(r) for r in resolutions] == [
            (accepted, True, by_role, None),
            (rejected, False, by_id, "Not needed"),
        ]
        # Each resolution's job (api.map_edit.resolved) removes its card.
        await gone(discord, queue, edit_card["id"])
        await gone(discord, queue, (await stack_card_id(stack, rejected)))

        # Tournament runs: Accept verifies; a verified run cannot be rejected.
        verify = f"tournament:verify:v1:{tc_id}"
        run_card = await card(discord, queue, verify)
        assert await pressed(discord, run_card, verify, outsider) == NOT_A_MODERATOR
        assert await pressed(discord, run_card, verify, by_role) == "Verified."
        assert await pressed(discord, run_card, f"tournament:reject:v1:{tc_id}", by_id) == (
            "This tournament completion is already verified and cannot be rejected."
        )
        status = await stack.owner.fetchval(
            "SELECT status FROM tournaments.completions WHERE id = $1", tc_id
        )
        assert status == "verified"

        # Playtest votes are the presser's own; a voter without a verified run is refused.
        thread_id = await eventually(
            lambda: stack.owner.fetchval(
                "SELECT thread_id FROM playtests.meta WHERE id = $1", playtest_id
            ),
            30,
            "the playtest thread",
        )
        vote = f"playtest:vote:v1:{playtest_id}"
        starter = await card(discord, thread_id, vote)
        voter = await seed.user(stack.owner)
        await seed.verified_completion(stack.owner, map_id, voter)
        modal, refused_modal = await asyncio.gather(
            pressed(discord, starter, vote, voter), pressed(discord, starter, vote, outsider)
        )
        assert await submitted(discord, thread_id, modal, voter, "6.5") == (
            "Your vote (6.5) was recorded."
        )
        refused = await submitted(discord, thread_id, refused_modal, outsider, "9")
        assert refused.startswith("The API refused this:"), refused
        votes = await stack.owner.fetch(
            "SELECT user_id, difficulty FROM playtests.votes WHERE playtest_thread_id = $1",
            thread_id,
        )
        assert [(r["user_id"], float(r["difficulty"])) for r in votes] == [(voter, 6.5)]
        # The vote's job (api.playtest.vote.cast) tells the thread.
        await eventually(
            lambda: _mentions_in(discord, thread_id, voter), 30, "the vote's message in the thread"
        )
