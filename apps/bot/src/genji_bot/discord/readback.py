"""A posted message read back as the `Outgoing` that produced it, to compare fingerprints.

Messages are sent fitted to Discord's limits (genji_bot.effects.limits), and the fingerprint is
taken of the fitted message, so a cut text or a placeholder for an empty field reads back equal.

Limits (a message that does not survive them is not recognised, and its send is held as
uncertain rather than sent twice):
- Discord does not return the mentions a message allowed; `mentions` is read back as the users
  and roles named in the content, in order of first appearance, and the fingerprint leaves
  mentions out, so they never decide a match (a message naming users it does not ping
  reconciles like any other);
- Discord trims content, so content with surrounding whitespace does not compare equal;
- only the first embed and the buttons of action rows are read (the port never sends more);
- a forward carries no content of its own: it is read back as `Outgoing()`, so forwards are
  reconciled only when they were sent with an empty message.
"""

from __future__ import annotations

import re

import discord

from genji_bot.effects.port import Button, Embed, Field, Mentions, Outgoing

_USER = re.compile(r"<@!?([0-9]{15,20})>")
_ROLE = re.compile(r"<@&([0-9]{15,20})>")
_STYLE_NAMES = {
    discord.ButtonStyle.primary: "primary",
    discord.ButtonStyle.secondary: "secondary",
    discord.ButtonStyle.success: "success",
    discord.ButtonStyle.danger: "danger",
}


def _ordered_ids(pattern: re.Pattern[str], content: str) -> tuple[int, ...]:
    return tuple(dict.fromkeys(int(found) for found in pattern.findall(content)))


def mentions_of(content: str) -> Mentions:
    return Mentions(users=_ordered_ids(_USER, content), roles=_ordered_ids(_ROLE, content))


def embed_of(value: discord.Embed) -> Embed:
    return Embed(
        title=value.title or "",
        description=value.description or "",
        fields=tuple(
            Field(name=item.name or "", value=item.value or "", inline=bool(item.inline))
            for item in value.fields
        ),
        url=value.url or None,
        image_url=value.image.url or None,
        color=value.color.value if value.color is not None else None,
        footer=value.footer.text or "",
    )


def buttons_of(message: discord.Message) -> tuple[Button, ...]:
    found: list[Button] = []
    for row in message.components:
        for child in getattr(row, "children", ()):
            if (
                isinstance(child, discord.Button)
                and child.custom_id
                and child.style in _STYLE_NAMES
            ):
                found.append(
                    Button(
                        custom_id=child.custom_id,
                        label=child.label or "",
                        style=_STYLE_NAMES[child.style],  # type: ignore[arg-type]
                        disabled=child.disabled,
                    )
                )
    return tuple(found)


def outgoing_of(message: discord.Message) -> Outgoing:
    if message.message_snapshots:
        return Outgoing()
    return Outgoing(
        content=message.content,
        embed=embed_of(message.embeds[0]) if message.embeds else None,
        buttons=buttons_of(message),
        mentions=mentions_of(message.content),
    )
