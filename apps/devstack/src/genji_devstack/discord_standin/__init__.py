"""A loopback stand-in of Discord's REST API and gateway for the real discord.py client.

Dev tooling only (tests, the soak, local runs); production talks to Discord. Import what you
need from its modules (`server.DiscordStandIn`, `control.StandInControl`,
`seed.world_for_bot`, `pointing.discord_py_pointed_at`); this package file imports nothing, so
the `report` command starts without importing discord.py. DEFAULT_TOKEN is the token the
stand-in accepts unless it is given another.
"""

DEFAULT_TOKEN = "standin-token"
