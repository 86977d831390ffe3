"""The alert card's buttons as dynamic items: Retry job and Details.

Both are registered at start-up (`@dynamic_item`, the client's setup hook), so the buttons of
cards posted before a restart work without any stored view. Reconstruction parses the custom
id only; the callback defers at once (ephemeral), then `genji_bot.alerts.presses` checks the
real actor and asks the API for the current state. The answer is ephemeral, never in the
channel, and always sent (`deferred_press`): a press that fails unexpectedly says so.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import discord

from genji_bot.alerts.custom_ids import (
    DETAILS_PATTERN,
    RETRY_PATTERN,
    DetailsControl,
    RetryControl,
)
from genji_bot.alerts.presses import Press, press_details, press_retry
from genji_bot.api import ApiClient
from genji_bot.discord.components import dynamic_item
from genji_bot.discord.presses import deferred_press
from genji_bot.discord.render import no_mentions
from genji_bot.settings import BotSettings

RETRY_LABEL = "Retry job"
DETAILS_LABEL = "Details"


def _services(interaction: discord.Interaction[Any]) -> tuple[BotSettings, ApiClient]:
    settings = getattr(interaction.client, "settings", None)
    api = getattr(interaction.client, "api", None)
    if not isinstance(settings, BotSettings) or not isinstance(api, ApiClient):
        raise RuntimeError("the alert controls run only in the Genji bot client")
    return settings, api


def _press(interaction: discord.Interaction[Any]) -> Press:
    return Press(
        actor_id=interaction.user.id,
        interaction_id=interaction.id,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        message_id=interaction.message.id if interaction.message is not None else None,
    )


def retry_disabled(view: discord.ui.View, custom_id: str) -> dict[str, Any]:
    """The edit of a card's `view` that greys out the button `custom_id`: the same components,
    that one disabled, as a view that only renders, and no one mentioned (an edit never pings)."""
    for item in view.children:
        if isinstance(item, discord.ui.Button) and item.custom_id == custom_id:
            item.disabled = True
    view.stop()  # render only: discord.py must not track this view for the message
    return {"view": view, "allowed_mentions": no_mentions()}


async def _disable_retry(message: discord.Message, custom_id: str) -> None:
    """Grey out this button on the card at once; the alert supervisor renders the rest."""
    view = discord.ui.View.from_message(message, timeout=None)
    await message.edit(**retry_disabled(view, custom_id))


@dynamic_item
class RetryJobButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RETRY_PATTERN):
    def __init__(self, control: RetryControl, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=RETRY_LABEL,
                style=discord.ButtonStyle.danger,
                custom_id=control.custom_id,
                disabled=disabled,
            )
        )
        self.control = control

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RetryJobButton:
        return cls(RetryControl(UUID(match["job"]), int(match["generation"])))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        settings, api = _services(interaction)
        message = interaction.message

        async def refresh_card() -> None:
            if message is not None:
                await _disable_retry(message, self.control.custom_id)

        async def press() -> str:
            return await press_retry(
                api, settings.queue_operator_ids, self.control, _press(interaction), refresh_card
            )

        await deferred_press(interaction, press, "retry job")


@dynamic_item
class JobDetailsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DETAILS_PATTERN):
    def __init__(self, control: DetailsControl) -> None:
        super().__init__(
            discord.ui.Button(
                label=DETAILS_LABEL,
                style=discord.ButtonStyle.secondary,
                custom_id=control.custom_id,
            )
        )
        self.control = control

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JobDetailsButton:
        return cls(DetailsControl(UUID(match["job"])))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        settings, api = _services(interaction)

        async def press() -> str:
            return await press_details(
                api, settings.queue_operator_ids, self.control, _press(interaction)
            )

        await deferred_press(interaction, press, "job details")
