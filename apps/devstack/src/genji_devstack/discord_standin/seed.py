"""The world the Genji bot expects, from its settings: its guild, channels, forum and roles.

Every channel of `BotSettings.channels` is a text channel except `playtest_forum`, a forum
with tags; every skill, rank, prestige and moderator role exists (and the tournament ping role
if set).
"""

from __future__ import annotations

from dataclasses import fields

from genji_bot.settings import BotSettings

from genji_devstack.discord_standin import DEFAULT_TOKEN
from genji_devstack.discord_standin.world import Channel, ChannelKind, ForumTag, World

__all__ = ["DEFAULT_TOKEN", "FORUM_TAGS", "world_for_bot"]
FORUM_TAGS = ("Open", "Approved", "Rejected", "Cancelled", "Completed")


def world_for_bot(
    settings: BotSettings,
    *,
    token: str = DEFAULT_TOKEN,
    forum_tags: tuple[str, ...] = FORUM_TAGS,
    guild_name: str = "Genji Parkour (stand-in)",
) -> World:
    world = World(
        guild_id=settings.guild_id,
        guild_name=guild_name,
        bot_user_id=settings.bot_user_id,
        token=token,
    )
    for item in fields(settings.channels):
        channel_id: int = getattr(settings.channels, item.name)
        if item.name == "playtest_forum":
            tags = [ForumTag(id=world.ids.next(), name=name) for name in forum_tags]
            world.add_channel(
                Channel(id=channel_id, kind=ChannelKind.FORUM, name=item.name, tags=tags)
            )
        else:
            world.add_channel(Channel(id=channel_id, kind=ChannelKind.TEXT, name=item.name))
    for item in fields(settings.skill_roles):
        world.add_role(getattr(settings.skill_roles, item.name), item.name.title())
    for tier, role_id in enumerate(settings.rank_roles.main_tiers, start=1):
        world.add_role(role_id, f"Rank {tier}")
    for level, role_id in enumerate(settings.rank_roles.prestige, start=1):
        world.add_role(role_id, f"Prestige {level}")
    if settings.tournament_ping_role_id is not None:
        world.add_role(settings.tournament_ping_role_id, "Tournament pings")
    for role_id in settings.moderator_role_ids:
        world.add_role(role_id, "Moderator")
    return world
