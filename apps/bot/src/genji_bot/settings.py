"""The bot's settings, from the environment.

GENJI_API_URL and GENJI_API_KEY say how to reach the API (the key needs the bot's scopes);
DISCORD_TOKEN and DISCORD_GUILD_ID the Discord side, DISCORD_URL where Discord is (unset:
Discord itself; the local stand-in of Discord otherwise). Channel and role ids have one variable
each. Their defaults are placeholders, which the recorder and the stand-in know; with a token
for Discord itself every one of them must be set, and a missing one stops the start-up naming
it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import timedelta

from genji_sdk.recovery import DEFAULT_ALERT_RECIPIENT
from genji_worker.env_table import Variable, ids, read_table


@dataclass(frozen=True)
class Channels:
    verification_queue: int = 1_000_000_000_000_000_001
    completions: int = 1_000_000_000_000_000_002
    upvotes: int = 1_000_000_000_000_000_003
    newsfeed: int = 1_000_000_000_000_000_004
    xp: int = 1_000_000_000_000_000_005
    playtest_forum: int = 1_000_000_000_000_000_006
    tournament_announcements: int = 1_000_000_000_000_000_007
    job_alerts: int = 1_000_000_000_000_000_008


def _placeholder_roles(base: int, count: int) -> tuple[int, ...]:
    return tuple(base + n for n in range(count))


@dataclass(frozen=True)
class RankRoles:
    """Role ids of the 20 main rank tiers (lowest first) and of prestige 1, 2, ... (env
    RANK_ROLE_IDS / PRESTIGE_ROLE_IDS, comma-separated)."""

    main_tiers: tuple[int, ...] = _placeholder_roles(1_000_000_000_000_100_000, 20)
    prestige: tuple[int, ...] = _placeholder_roles(1_000_000_000_000_200_001, 10)

    @property
    def managed(self) -> frozenset[int]:
        return frozenset(self.main_tiers) | frozenset(self.prestige)


@dataclass(frozen=True)
class SkillRoles:
    """The role of each skill rank (SKILL_ROLE_<RANK>_ID); a member holds the one of their rank."""

    ninja: int = 1_000_000_000_000_000_101
    jumper: int = 1_000_000_000_000_000_102
    skilled: int = 1_000_000_000_000_000_103
    pro: int = 1_000_000_000_000_000_104
    master: int = 1_000_000_000_000_000_105
    grandmaster: int = 1_000_000_000_000_000_106
    god: int = 1_000_000_000_000_000_107

    def of(self, rank: str) -> int | None:
        name = rank.lower()
        if name not in {item.name for item in fields(self)}:
            return None
        role: int = getattr(self, name)
        return role

    def all(self) -> frozenset[int]:
        return frozenset(getattr(self, item.name) for item in fields(self))


@dataclass(frozen=True)
class BotSettings:
    api_url: str
    api_key: str
    discord_token: str | None = None
    guild_id: int = 1_000_000_000_000_000_000
    bot_user_id: int = 10**18
    alert_recipient_id: int = DEFAULT_ALERT_RECIPIENT
    channels: Channels = field(default_factory=Channels)
    skill_roles: SkillRoles = field(default_factory=SkillRoles)
    rank_roles: RankRoles = field(default_factory=RankRoles)
    tournament_ping_role_id: int | None = None
    """The role pinged by tournament announcements (TOURNAMENT_PING_ROLE_ID); none by default."""
    api_timeout_seconds: float = 10.0
    alert_poll_seconds: float = 15.0
    """How often the alert supervisor polls the API for due alerts (JOB_ALERT_POLL_SECONDS)."""
    alert_lease_seconds: float = 60.0
    """How long another supervisor's recorded alert intent is left alone before it is reconciled
    from the channel's history (JOB_ALERT_LEASE_SECONDS)."""
    queue_operator_ids: tuple[int, ...] = (DEFAULT_ALERT_RECIPIENT,)
    """Who may press the alert card's Retry job and Details (QUEUE_OPERATOR_IDS, comma-separated);
    the API checks the same list again."""
    moderator_role_ids: tuple[int, ...] = (1_000_000_000_000_000_201,)
    """Members holding any of these roles may press the moderators' buttons: a review card's
    Accept and Reject, a map edit's and a tournament run's (MODERATOR_ROLE_IDS, comma-separated;
    the default is a placeholder the stand-in knows)."""
    moderator_ids: tuple[int, ...] = ()
    """Users who may press them whatever their roles (MODERATOR_IDS, comma-separated; none by
    default)."""
    discord_url: str | None = None
    """Where Discord's REST API and gateway are (DISCORD_URL, e.g. the local stand-in's URL);
    None is Discord itself."""
    nonce_window_seconds: float = 60.0
    """How long after its intent a send is repeated with its nonce rather than looked for in
    history (DISCORD_NONCE_WINDOW_SECONDS); keep it well inside Discord's deduplication window
    of a few minutes. 0 never repeats a send."""

    @property
    def nonce_window(self) -> timedelta:
        return timedelta(seconds=self.nonce_window_seconds)


class MissingSetting(ValueError):
    """A setting that Discord itself needs is not set."""

    def __init__(self, variable: str) -> None:
        super().__init__(
            f"{variable} is not set: with a token for Discord itself every channel and role id "
            "must be set (docs/bot.md, Settings)"
        )
        self.variable = variable


def required_ids() -> tuple[str, ...]:
    """The variables Discord itself needs, placeholders being only for the recorder and the
    stand-in."""
    channels = tuple(f"{item.name.upper()}_CHANNEL_ID" for item in fields(Channels))
    skills = tuple(f"SKILL_ROLE_{item.name.upper()}_ID" for item in fields(SkillRoles))
    return (
        "DISCORD_GUILD_ID",
        "BOT_USER_ID",
        *channels,
        *skills,
        "RANK_ROLE_IDS",
        "PRESTIGE_ROLE_IDS",
        "MODERATOR_ROLE_IDS",
    )


IDS = "comma-separated Discord ids"
SECONDS = "a number of seconds"
TABLE = (
    Variable("GENJI_API_URL", "api_url", str, "a URL", "where the API is"),
    Variable("DISCORD_TOKEN", "discord_token", str, "a token", "the bot's Discord token"),
    Variable("DISCORD_URL", "discord_url", str, "a URL", "where Discord is (a stand-in)"),
    Variable("DISCORD_GUILD_ID", "guild_id", int, "a Discord id", "the guild"),
    Variable("BOT_USER_ID", "bot_user_id", int, "a Discord id", "the bot's own id"),
    Variable("JOB_ALERT_RECIPIENT_ID", "alert_recipient_id", int, "a Discord id", "alerts to"),
    Variable("TOURNAMENT_PING_ROLE_ID", "tournament_ping_role_id", int, "a Discord id", "ping"),
    Variable("GENJI_API_TIMEOUT", "api_timeout_seconds", float, SECONDS, "API call deadline"),
    Variable("JOB_ALERT_POLL_SECONDS", "alert_poll_seconds", float, SECONDS, "alert polls"),
    Variable("JOB_ALERT_LEASE_SECONDS", "alert_lease_seconds", float, SECONDS, "alert lease"),
    Variable("QUEUE_OPERATOR_IDS", "queue_operator_ids", ids, IDS, "who may retry jobs"),
    Variable("MODERATOR_ROLE_IDS", "moderator_role_ids", ids, IDS, "moderators' roles"),
    Variable("MODERATOR_IDS", "moderator_ids", ids, IDS, "moderators whatever their roles"),
    Variable(
        "DISCORD_NONCE_WINDOW_SECONDS", "nonce_window_seconds", float, SECONDS, "nonce window"
    ),
)
CHANNEL_TABLE = tuple(
    Variable(f"{item.name.upper()}_CHANNEL_ID", item.name, int, "a Discord id", "a channel")
    for item in fields(Channels)
)
SKILL_TABLE = tuple(
    Variable(f"SKILL_ROLE_{item.name.upper()}_ID", item.name, int, "a Discord id", "a rank role")
    for item in fields(SkillRoles)
)
RANK_TABLE = (
    Variable("RANK_ROLE_IDS", "main_tiers", ids, IDS, "the 20 main rank tiers' roles"),
    Variable("PRESTIGE_ROLE_IDS", "prestige", ids, IDS, "the prestige roles"),
)


def bot_settings_from_env(environ: Mapping[str, str] = os.environ) -> BotSettings:
    key = environ.get("GENJI_API_KEY")
    if not key:
        raise SystemExit("GENJI_API_KEY must hold the bot's API key")
    if environ.get("DISCORD_TOKEN") and not environ.get("DISCORD_URL"):
        for variable in required_ids():
            if not environ.get(variable, "").strip():
                raise MissingSetting(variable)
    # An id list naming no id keeps its default, as an unset one does.
    values = {k: v for k, v in read_table(TABLE, environ).items() if v != ()}
    values.setdefault("api_url", "http://127.0.0.1:8000")
    return BotSettings(
        api_key=key,
        channels=Channels(**read_table(CHANNEL_TABLE, environ)),
        skill_roles=SkillRoles(**read_table(SKILL_TABLE, environ)),
        rank_roles=RankRoles(**read_table(RANK_TABLE, environ)),
        **values,
    )
