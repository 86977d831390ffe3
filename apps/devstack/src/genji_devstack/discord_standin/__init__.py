"""A loopback stand-in of Discord's REST API and gateway for the real discord.py client.

Dev tooling only (tests, the soak, local runs); production talks to Discord.
"""

from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.pointing import discord_py_pointed_at
from genji_devstack.discord_standin.seed import DEFAULT_TOKEN, world_for_bot
from genji_devstack.discord_standin.server import DiscordStandIn
from genji_devstack.discord_standin.world import World

__all__ = [
    "DEFAULT_TOKEN",
    "DiscordStandIn",
    "StandInControl",
    "World",
    "discord_py_pointed_at",
    "world_for_bot",
]
