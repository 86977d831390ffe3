"""The playtest thread's Vote button: a modal asks the presser's difficulty (0 to 10; left empty,
it removes their vote), and the submit votes as the presser, never as anyone else. The playtest
is read first, so a closed one answers so instead of taking a vote; the API refuses a voter
without a verified run of the map (400), which the press explains."""

from __future__ import annotations

import re
from typing import Any

import discord
from genji_sdk.playtests import PlaytestStateResponse

from genji_bot.api import ApiClient
from genji_bot.discord.components import dynamic_item
from genji_bot.discord.presses import (
    REFUSALS,
    Presser,
    ask_modal,
    modal_submit,
    presser,
    refusal,
    services,
)

VOTE_PATTERN = r"playtest:vote:v1:(?P<id>[0-9]{1,19})"
UNKNOWN_PLAYTEST = "This playtest no longer exists; the message is out of date."
CLOSED = "This playtest is closed; votes are no longer taken."
BAD_DIFFICULTY = "Give a difficulty from 0 to 10 (for example 6.5); nothing was recorded."


def difficulty_of(value: str) -> float | None:
    """The difficulty typed in the modal (None: not a number from 0 to 10)."""
    try:
        difficulty = float(value.replace(",", "."))
    except ValueError:
        return None
    return difficulty if 0 <= difficulty <= 10 else None


async def press_vote(api: ApiClient, playtest_id: int, who: Presser, value: str) -> str:
    """Cast (or, for an empty value, remove) the presser's own vote."""
    difficulty = difficulty_of(value) if value else None
    if value and difficulty is None:
        return BAD_DIFFICULTY
    try:
        playtest = await api.read(f"/maps/playtests/{playtest_id}", PlaytestStateResponse)
        if playtest.completed or playtest.thread_id is None:
            return CLOSED
        path = f"/maps/playtests/{playtest.thread_id}/vote/{who.user_id}"
        if difficulty is None:
            await api.request("DELETE", path)
        else:
            await api.request("POST", path, json={"difficulty": difficulty})
    except REFUSALS as error:
        return refusal(error, gone=UNKNOWN_PLAYTEST)
    if difficulty is None:
        return "Your vote was removed."
    return f"Your vote ({difficulty:g}) was recorded."


@dynamic_item
class VotePlaytest(discord.ui.DynamicItem[discord.ui.Button[Any]], template=VOTE_PATTERN):
    def __init__(self, playtest_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Vote",
                style=discord.ButtonStyle.secondary,
                custom_id=f"playtest:vote:v1:{playtest_id}",
            )
        )
        self.playtest_id = playtest_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> VotePlaytest:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(
            ask_modal(
                interaction,
                title="Vote on this playtest",
                custom_id=f"playtest:vote-difficulty:v1:{self.playtest_id}",
                label="Difficulty (0 to 10)",
                placeholder="e.g. 6.5; leave empty to remove your vote",
                required=False,
                max_length=5,
            )
        )


@modal_submit(r"playtest:vote-difficulty:v1:(?P<id>[0-9]{1,19})")
async def vote_submitted(match: re.Match[str], value: str, submit: discord.Interaction[Any]) -> str:
    _, api = services(submit)
    return await press_vote(api, int(match["id"]), presser(submit), value)
