"""The stand-in's local view (GET /_standin/view) in a real headless chromium: it renders what
the real discord.py client posted, as text, and a press there reaches the client as the chosen
member, whose ephemeral answer then shows on the page; a modal the client answers with is
filled in and submitted there."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import discord
import httpx
from genji_devstack.discord_standin.server import DiscordStandIn

from .headless import headless_page
from .standin_bot import SETTINGS, StandInBot

CHANNEL = SETTINGS.channels.verification_queue
MEMBER = 300_000_000_000_000_002
OPERATOR = 141_372_217_677_053_952
WITHIN = 5.0
VERIFY = "completion:verify:v1:(?P<id>[0-9]+)"
INJECTION = "<img src=x onerror=\"document.title='owned'\"> run <b>HELL9</b>"


class VerifyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=VERIFY):
    def __init__(self, completion_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Accept",
                style=discord.ButtonStyle.success,
                custom_id=f"completion:verify:v1:{completion_id}",
            )
        )
        self.completion_id = completion_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> VerifyButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"completion {self.completion_id} verified by {interaction.user.id}", ephemeral=True
        )


REJECT = "completion:reject:v1:(?P<id>[0-9]+)"


class ReasonForm(discord.ui.Modal, title="Reject completion"):
    reason: discord.ui.TextInput[ReasonForm] = discord.ui.TextInput(
        label="Reason", custom_id="reason", style=discord.TextStyle.paragraph
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"rejected: {self.reason.value}", ephemeral=True)


class RejectButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REJECT):
    def __init__(self, completion_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Reject",
                style=discord.ButtonStyle.danger,
                custom_id=f"completion:reject:v1:{completion_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RejectButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(ReasonForm())


def selector(custom_id: str) -> str:
    return f"document.querySelector({json.dumps(f'button[data-custom-id={custom_id!r}]')})"


async def test_the_page_is_one_document_with_nothing_from_elsewhere(
    standin: DiscordStandIn,
) -> None:
    async with httpx.AsyncClient() as http:
        page = await http.get(f"{standin.url}/_standin/view")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert "/*SCRIPT*/" not in page.text and "/*STYLE*/" not in page.text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text)


async def test_a_press_in_the_local_view_reaches_the_bot_and_shows_its_answer(
    bot: StandInBot, standin: DiscordStandIn
) -> None:
    bot.add_dynamic_items(VerifyButton)
    view = discord.ui.View(timeout=None)
    view.add_item(VerifyButton(1))
    view.add_item(
        discord.ui.Button(
            label="Reject",
            style=discord.ButtonStyle.danger,
            custom_id="completion:reject:v1:1",
            disabled=True,
        )
    )
    view.stop()
    embed = discord.Embed(title="New Submission", description="<script>no</script>")
    embed.add_field(name="Code", value="HELL9").set_footer(text="completion 1")
    channel = bot.get_channel(CHANNEL)
    assert isinstance(channel, discord.TextChannel)
    await channel.send(INJECTION, embed=embed, view=view)

    accept, reject = selector("completion:verify:v1:1"), selector("completion:reject:v1:1")
    async with headless_page() as page:
        await page.navigate(f"{standin.url}/_standin/view#channel={CHANNEL}")
        await page.wait_for(f"{accept} !== null")
        assert await page.evaluate(f"[{accept}.textContent, {accept}.disabled]") == [
            "Accept",
            False,
        ]
        assert await page.evaluate(f"[{reject}.textContent, {reject}.disabled]") == [
            "Reject",
            True,
        ]
        shown = await page.evaluate("document.getElementById('messages').innerText")
        assert INJECTION in shown and "<script>no</script>" in shown
        assert "New Submission" in shown and "HELL9" in shown and "completion 1" in shown
        assert await page.evaluate("document.querySelectorAll('#messages img, b').length") == 0
        assert await page.evaluate("document.getElementById('member').value") == (
            "141372217677053952"
        )

        await page.evaluate(
            "(() => { const member = document.getElementById('member');"
            f" member.value = '{MEMBER}'; member.dispatchEvent(new Event('input'));"
            f" {accept}.click(); }})()"
        )
        seen = await asyncio.wait_for(bot.events.interactions.get(), WITHIN)
        assert seen.data is not None and seen.data.get("custom_id") == "completion:verify:v1:1"
        assert seen.user.id == MEMBER and seen.channel_id == CHANNEL

        answer = json.dumps(f"completion 1 verified by {MEMBER}")
        await page.wait_for(
            "[...document.querySelectorAll('#messages .message.ephemeral')]"
            f".some((m) => m.innerText.includes({answer}))"
        )
        await page.wait_for(
            "document.getElementById('presses').innerText.includes('answered with a message')"
        )
        assert await page.evaluate("document.title") != "owned"


async def test_a_modal_the_bot_answers_with_is_filled_and_submitted_in_the_local_view(
    bot: StandInBot, standin: DiscordStandIn
) -> None:
    bot.add_dynamic_items(RejectButton)
    view = discord.ui.View(timeout=None)
    view.add_item(RejectButton(2))
    view.stop()
    channel = bot.get_channel(CHANNEL)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("review", view=view)

    reject = selector("completion:reject:v1:2")
    async with headless_page() as page:
        await page.navigate(f"{standin.url}/_standin/view#channel={CHANNEL}")
        await page.wait_for(f"{reject} !== null")
        await page.evaluate(f"{reject}.click()")
        pressed = await asyncio.wait_for(bot.events.interactions.get(), WITHIN)
        assert pressed.user.id == OPERATOR
        await page.wait_for("!document.getElementById('modal').hidden")
        assert await page.evaluate("document.getElementById('modal-title').textContent") == (
            "Reject completion"
        )
        await page.evaluate(
            "(() => { const reason = document.querySelector('#modal-fields textarea');"
            " reason.value = 'no <video>';"
            " document.querySelector('#modal-form button[type=submit]').click(); })()"
        )
        submitted = await asyncio.wait_for(bot.events.interactions.get(), WITHIN)
        assert submitted.type is discord.InteractionType.modal_submit
        assert submitted.user.id == OPERATOR and submitted.data is not None
        rows: Any = submitted.data.get("components", [])
        assert [item["value"] for row in rows for item in row["components"]] == ["no <video>"]
        await page.wait_for(
            "document.getElementById('messages').innerText.includes('rejected: no <video>')"
        )
        assert await page.evaluate("document.getElementById('modal').hidden")
