"""The map edit card's buttons: Accept applies the proposed changes, Reject (after a modal asking
for the reason) refuses them. Moderators only; the API resolves a request once and answers a
second resolution 409, which the press explains."""

from __future__ import annotations

import re
from typing import Any

import discord

from genji_bot.api import ApiClient
from genji_bot.discord.components import dynamic_item
from genji_bot.discord.presses import (
    NOT_A_MODERATOR,
    REFUSALS,
    Presser,
    ask_moderator_reason,
    deferred_press,
    may_moderate,
    modal_submit,
    presser,
    refusal,
    services,
)
from genji_bot.settings import BotSettings

ACCEPT_PATTERN = r"map_edit:accept:v1:(?P<id>[0-9]{1,19})"
REJECT_PATTERN = r"map_edit:reject:v1:(?P<id>[0-9]{1,19})"

ALREADY_RESOLVED = "This edit request was already resolved; nothing was changed."
UNKNOWN_EDIT = "This edit request no longer exists; the card is out of date."


async def press_resolve(
    api: ApiClient,
    settings: BotSettings,
    edit_id: int,
    who: Presser,
    *,
    accepted: bool,
    reason: str | None = None,
) -> str:
    if not may_moderate(settings, who):
        return NOT_A_MODERATOR
    try:
        await api.request(
            "PUT",
            f"/maps/map-edits/{edit_id}/resolve",
            json={"accepted": accepted, "resolved_by": who.user_id, "rejection_reason": reason},
        )
    except REFUSALS as error:
        return refusal(error, gone=UNKNOWN_EDIT, conflict=ALREADY_RESOLVED)
    if accepted:
        return "Accepted: the changes were applied and the requester is told."
    return "Rejected: the requester is told why."


@dynamic_item
class AcceptMapEdit(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACCEPT_PATTERN):
    def __init__(self, edit_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Accept",
                style=discord.ButtonStyle.success,
                custom_id=f"map_edit:accept:v1:{edit_id}",
            )
        )
        self.edit_id = edit_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptMapEdit:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        settings, api = services(interaction)
        await deferred_press(
            interaction,
            lambda: press_resolve(api, settings, self.edit_id, presser(interaction), accepted=True),
            self.custom_id,
        )


@dynamic_item
class RejectMapEdit(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REJECT_PATTERN):
    def __init__(self, edit_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Reject",
                style=discord.ButtonStyle.danger,
                custom_id=f"map_edit:reject:v1:{edit_id}",
            )
        )
        self.edit_id = edit_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RejectMapEdit:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await ask_moderator_reason(
            interaction,
            title="Reject this map edit",
            custom_id=f"map_edit:reject-reason:v1:{self.edit_id}",
            placeholder="Why is this edit rejected? The requester is told.",
        )


@modal_submit(r"map_edit:reject-reason:v1:(?P<id>[0-9]{1,19})")
async def reject_submitted(
    match: re.Match[str], reason: str, submit: discord.Interaction[Any]
) -> str:
    settings, api = services(submit)
    return await press_resolve(
        api, settings, int(match["id"]), presser(submit), accepted=False, reason=reason
    )
