"""Edits mention no one, through discord.py's own objects: the port's edit arguments of any
message (the alert card's, and one whose content names someone), and the edit a Retry job
press makes to grey out its button."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import discord
from genji_bot.alerts.cards import card, reply
from genji_bot.alerts.controls import retry_disabled
from genji_bot.alerts.custom_ids import DetailsControl, RetryControl
from genji_bot.discord import render
from genji_bot.effects.port import Mentions, Outgoing
from genji_sdk.alerts import AlertCard, AlertEpisode

JOB = UUID("3f0e8a2c-1b7d-4c55-9a51-0d2f6c8e9b10")
RECIPIENT = 141372217677053952
AT = datetime(2026, 12, 1, 12, 30, tzinfo=UTC)

ALERT = AlertCard(
    job_id=JOB,
    event_name="api.completion.verification",
    retry_generation=2,
    state="held",
    error="boom",
    attempts=6,
    failed_at=AT,
    completed_effects=[],
    pending_effects=[],
    retry_enabled=True,
    sentry_url=None,
    guild_id=10**18,
    channel_id=10**18 + 1,
    message_id=10**18 + 2,
    desired_version=3,
    rendered_version=2,
    episode=AlertEpisode(retry_generation=2, failed_at=AT, notified=False, reply_message_id=None),
)


def _pings_no_one(allowed: Any) -> None:
    assert isinstance(allowed, discord.AllowedMentions)
    payload = allowed.to_dict()
    assert payload["parse"] == []
    assert not payload.get("users") and not payload.get("roles")
    assert not payload.get("replied_user")


async def test_every_edit_the_port_makes_mentions_no_one() -> None:
    naming = Outgoing(
        content=f"<@{RECIPIENT}> <@&42> see this",
        mentions=Mentions(users=(RECIPIENT,), roles=(42,)),
    )
    for message in (card(ALERT), reply(ALERT, 2, RECIPIENT), naming):
        _pings_no_one(render.edit_arguments(message)["allowed_mentions"])
    # A send still allows exactly what the message names: the reply pings its recipient.
    sent = render.message_arguments(reply(ALERT, 2, RECIPIENT))["allowed_mentions"].to_dict()
    assert sent["users"] == [RECIPIENT]


async def test_greying_out_retry_edits_only_that_button_and_mentions_no_one() -> None:
    view = render.view(card(ALERT).buttons)
    assert view is not None
    retry = RetryControl(JOB, 2).custom_id
    arguments = retry_disabled(view, retry)
    assert set(arguments) == {"view", "allowed_mentions"}
    _pings_no_one(arguments["allowed_mentions"])
    edited = arguments["view"]
    assert edited.is_finished()  # rendered only, never tracked for the message
    states = {item.custom_id: item.disabled for item in edited.children}  # type: ignore[attr-defined]
    assert states == {retry: True, DetailsControl(JOB).custom_id: False}
