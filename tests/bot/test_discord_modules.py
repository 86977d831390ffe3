"""The discord.py side imports and renders without a Discord connection (it is never contacted
in tests): every module loads, mentions are explicit and never @everyone, embeds read back as
the fingerprinted message, and `python -m genji_bot` without a token points to the recorder."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import discord
import pytest
from genji_bot.discord import readback, render
from genji_bot.discord.views import DiscordViewSink
from genji_bot.effects.port import Button, Embed, Field, Mentions, Outgoing
from genji_bot.views.registry import ViewRegistry
from genji_sdk.views import OpenView

MODULES = (
    "genji_bot.discord.client",
    "genji_bot.discord.components",
    "genji_bot.discord.port",
    "genji_bot.discord.readback",
    "genji_bot.discord.render",
    "genji_bot.discord.views",
    "genji_bot.alerts.controls",
    "genji_bot.__main__",
)


@pytest.mark.parametrize("name", MODULES)
def test_module_imports(name: str) -> None:
    importlib.import_module(name)


def test_allowed_mentions_are_exactly_the_messages_own() -> None:
    allowed = render.allowed_mentions(Mentions(users=(10**18 + 1,), roles=(10**18 + 2,)))
    assert allowed.to_dict() == {
        "parse": [],
        "users": [10**18 + 1],
        "roles": [10**18 + 2],
    }
    assert render.allowed_mentions(Mentions()).to_dict() == {
        "parse": [],
        "users": [],
        "roles": [],
    }


def test_every_send_and_edit_carries_allowed_mentions() -> None:
    message = Outgoing(content="hello <@1000000000000000001>")
    for arguments in (render.message_arguments(message), render.edit_arguments(message)):
        assert isinstance(arguments["allowed_mentions"], discord.AllowedMentions)
        assert arguments["allowed_mentions"].everyone is False


def test_an_embed_reads_back_as_the_one_rendered() -> None:
    embed = Embed(
        title="New record",
        description="A run",
        fields=(Field(name="Time", value="12.34", inline=True), Field(name="Map", value="X")),
        url="https://example.org/run",
        image_url="https://img.example/run.png",
        color=0x00FF00,
        footer="Verified",
    )
    assert readback.embed_of(render.embed(embed)) == embed
    assert readback.embed_of(render.embed(Embed())) == Embed()


def test_mentions_read_back_from_the_content_in_order() -> None:
    content = (
        "<@1000000000000000002> and <@!1000000000000000001> "
        "<@&1000000000000000009> <@1000000000000000002>"
    )
    assert readback.mentions_of(content) == Mentions(
        users=(10**18 + 2, 10**18 + 1), roles=(10**18 + 9,)
    )


def test_the_bot_without_a_token_names_the_recorded_bot() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "genji_bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "python -m genji_devstack.recorded_bot" in done.stderr


async def test_sent_components_never_replace_the_registered_view_of_their_message() -> None:
    message = Outgoing(content="card", buttons=(Button("completion:verify:v1:7", "Accept"),))
    for arguments in (render.message_arguments(message), render.edit_arguments(message)):
        # discord.py stores a view given to a send or edit unless it is finished.
        assert arguments["view"].is_finished()


async def test_registered_views_reach_the_view_store_once_and_leave_it_when_retired() -> None:
    client = discord.Client(intents=discord.Intents.none())
    card = OpenView(kind="completion.verification", entity_id=7, message_id=10**18 + 70)

    def layout(view: OpenView) -> tuple[Button, ...]:
        return (Button(f"completion:verify:v1:{view.entity_id}", "Accept"),)

    registry = ViewRegistry()
    registry.connect(DiscordViewSink(client, {"completion.verification": layout}))
    registry.register(card)
    registry.register(card)
    store = client._connection._view_store
    assert store.is_message_tracked(card.message_id)
    assert len(client.persistent_views) == 1
    registry.retire(card.message_id)
    assert not store.is_message_tracked(card.message_id)
    assert client.persistent_views == []
