"""The tournament review card's buttons: Accept verifies the run, Reject rejects it.
Moderators only. The API's tournament verdict has no reason, so Reject asks for none and defers
at once like Accept. A verified run is terminal: rejecting it is 409, which the press explains;
a repeated verdict is the same job."""

from __future__ import annotations

import re
from typing import Any

import discord
import msgspec
from genji_sdk.jobs import JobStatusResponse

from genji_bot.api import ApiClient
from genji_bot.discord.components import dynamic_item
from genji_bot.discord.presses import (
    NOT_A_MODERATOR,
    REFUSALS,
    Presser,
    deferred_press,
    may_moderate,
    presser,
    refusal,
    services,
)
from genji_bot.settings import BotSettings

VERIFY_PATTERN = r"tournament:verify:v1:(?P<id>[0-9]{1,19})"
REJECT_PATTERN = r"tournament:reject:v1:(?P<id>[0-9]{1,19})"

UNKNOWN_RUN = "This tournament run no longer exists; the card is out of date."


async def press_tournament_verdict(
    api: ApiClient, settings: BotSettings, completion_id: int, who: Presser, *, verified: bool
) -> str:
    if not may_moderate(settings, who):
        return NOT_A_MODERATOR
    action = "verify" if verified else "reject"
    try:
        body = await api.request(
            "PATCH",
            f"/tournaments/completions/{completion_id}/{action}",
            json={"verified_by": who.user_id},
        )
        msgspec.convert(body, JobStatusResponse)
    except REFUSALS as error:
        return refusal(error, gone=UNKNOWN_RUN)
    return "Verified." if verified else "Rejected."


def _button(completion_id: int, *, verified: bool) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Accept" if verified else "Reject",
        style=discord.ButtonStyle.success if verified else discord.ButtonStyle.danger,
        custom_id=f"tournament:{'verify' if verified else 'reject'}:v1:{completion_id}",
    )


async def _press(
    interaction: discord.Interaction[Any], completion_id: int, *, verified: bool, what: str
) -> None:
    settings, api = services(interaction)
    await deferred_press(
        interaction,
        lambda: press_tournament_verdict(
            api, settings, completion_id, presser(interaction), verified=verified
        ),
        what,
    )


@dynamic_item
class VerifyTournamentRun(discord.ui.DynamicItem[discord.ui.Button[Any]], template=VERIFY_PATTERN):
    def __init__(self, completion_id: int) -> None:
        super().__init__(_button(completion_id, verified=True))
        self.completion_id = completion_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> VerifyTournamentRun:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _press(interaction, self.completion_id, verified=True, what=self.custom_id)


@dynamic_item
class RejectTournamentRun(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REJECT_PATTERN):
    def __init__(self, completion_id: int) -> None:
        super().__init__(_button(completion_id, verified=False))
        self.completion_id = completion_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RejectTournamentRun:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _press(interaction, self.completion_id, verified=False, what=self.custom_id)
