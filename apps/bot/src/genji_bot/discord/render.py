"""`Outgoing` as discord.py arguments: content, embed, buttons and the mentions allowed.

Every send and edit renders the message fitted to Discord's limits
(genji_bot.effects.limits.fitted), the form its fingerprint is taken of, and passes
`allowed_mentions` built here. A send allows exactly the users and
roles the message names, never @everyone or @here, and never the author of a replied-to
message. An edit allows no one (`no_mentions`), whatever the message names: an edit never pings,
and any code that edits a message (the port's edit, a control greying out its button) takes its
allowed mentions from `no_mentions`.
"""

from __future__ import annotations

from typing import Any

import discord

from genji_bot.effects.limits import fitted
from genji_bot.effects.port import Button, Embed, Mentions, Outgoing

STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def allowed_mentions(mentions: Mentions) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False,
        users=[discord.Object(id=user) for user in mentions.users],
        roles=[discord.Object(id=role) for role in mentions.roles],
        replied_user=False,
    )


def no_mentions() -> discord.AllowedMentions:
    """The allowed mentions of every edit: no one."""
    return discord.AllowedMentions.none()


def embed(value: Embed) -> discord.Embed:
    rendered = discord.Embed(
        title=value.title or None,
        description=value.description or None,
        url=value.url,
        color=value.color,
    )
    for item in value.fields:
        rendered.add_field(name=item.name, value=item.value, inline=item.inline)
    if value.image_url:
        rendered.set_image(url=value.image_url)
    if value.footer:
        rendered.set_footer(text=value.footer)
    return rendered


def button(value: Button) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(
        custom_id=value.custom_id,
        label=value.label,
        style=STYLES[value.style],
        disabled=value.disabled,
    )


def view(buttons: tuple[Button, ...]) -> discord.ui.View | None:
    """A persistent view with these buttons (None without any)."""
    if not buttons:
        return None
    rendered = discord.ui.View(timeout=None)
    for item in buttons:
        rendered.add_item(button(item))
    return rendered


def components(buttons: tuple[Button, ...]) -> discord.ui.View | None:
    """The buttons of a message being sent or edited, as a view that is already stopped.

    discord.py stores a live view it is given for the message it sends or edits, which would
    replace (and, once stopped, remove) the persistent view registered for that message id.
    Interactions belong to the registered views and dynamic items, so this one only renders.
    """
    rendered = view(buttons)
    if rendered is not None:
        rendered.stop()
    return rendered


def message_arguments(message: Outgoing) -> dict[str, Any]:
    """Keyword arguments of a send: only what the message has (discord.py rejects view=None)."""
    message = fitted(message)
    arguments: dict[str, Any] = {
        "content": message.content or None,
        "allowed_mentions": allowed_mentions(message.mentions),
    }
    if message.embed is not None:
        arguments["embed"] = embed(message.embed)
    rendered = components(message.buttons)
    if rendered is not None:
        arguments["view"] = rendered
    return arguments


def edit_arguments(message: Outgoing) -> dict[str, Any]:
    """Keyword arguments of an edit: the message is replaced whole (missing parts are cleared),
    and it mentions no one, even when its content names someone."""
    message = fitted(message)
    return {
        "content": message.content or None,
        "embed": embed(message.embed) if message.embed is not None else None,
        "view": components(message.buttons),
        "allowed_mentions": no_mentions(),
    }
