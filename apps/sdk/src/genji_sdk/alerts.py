"""The operator alert contract: what the bot's alert supervisor polls for and how it records the
delivery of each job's card and of each failure episode's reply (intent first, ids after)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from genji_sdk.ids import DiscordId
from genji_sdk.recovery import RecoveryState

Decision = Literal["fresh", "completed", "busy", "reconcile"]
"""fresh: the intent is recorded, send now; completed: the id is recorded, nothing to send;
busy: another supervisor's intent is within its lease; reconcile: an intent has no id, look
for its fingerprint in the channel before beginning again with `replaces`."""

EffectState = Literal["completed", "pending", "intended", "uncertain", "skipped", "failed"]

Fingerprint = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
Lease = Annotated[float, msgspec.Meta(ge=0.001, le=3600)]
Version = Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]


class AlertEffect(msgspec.Struct, frozen=True, kw_only=True):
    effect_key: str
    destination: str | None
    """The Discord destination of a send; None for a database effect."""
    state: EffectState


class AlertEpisode(msgspec.Struct, frozen=True, kw_only=True):
    """The failure of one generation, which gets one reply mentioning the operator."""

    retry_generation: int
    failed_at: datetime
    notified: bool
    reply_message_id: int | None


class AlertCard(msgspec.Struct, frozen=True, kw_only=True):
    job_id: UUID
    event_name: str
    retry_generation: int
    state: RecoveryState
    error: str | None
    """The last error, bounded, with mentions neutralized and credentials redacted."""
    attempts: int
    """Handler failures of the current generation."""
    failed_at: datetime | None
    completed_effects: list[AlertEffect]
    pending_effects: list[AlertEffect]
    retry_enabled: bool
    """Held with no uncertain send: a retry would be accepted."""
    sentry_url: str | None
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    """The card, once its id is recorded."""
    desired_version: int
    rendered_version: int
    episode: AlertEpisode | None
    """The current generation's episode while its reply is due (held and not yet notified)."""


class AlertWork(msgspec.Struct, frozen=True, kw_only=True):
    """Alerts whose card must be sent or edited, or whose current episode's reply is due."""

    alerts: list[AlertCard]


class CardBegin(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    holder: UUID
    """The supervisor instance recording the intent."""
    version: Version
    fingerprint: Fingerprint
    guild_id: DiscordId | None = None
    channel_id: DiscordId
    lease_seconds: Lease
    replaces: datetime | None = None
    """The time of an intent this caller reconciled and found unsent, to take it over."""


class CardComplete(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    channel_id: DiscordId
    message_id: DiscordId
    version: Version


class CardRendered(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    message_id: DiscordId
    version: Version


class CardGone(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    message_id: DiscordId


class CardBinding(msgspec.Struct, frozen=True, kw_only=True):
    decision: Decision | None = None
    """Set by a begin."""
    channel_id: int | None
    message_id: int | None
    rendered_version: int
    intent_at: datetime | None
    intent_fingerprint: str | None
    intent_version: int | None


class ReplyBegin(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    holder: UUID
    fingerprint: Fingerprint
    channel_id: DiscordId
    lease_seconds: Lease
    replaces: datetime | None = None


class ReplyComplete(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    channel_id: DiscordId
    message_id: DiscordId


class ReplyBinding(msgspec.Struct, frozen=True, kw_only=True):
    decision: Decision | None = None
    retry_generation: int
    notified: bool
    channel_id: int | None
    message_id: int | None
    intent_at: datetime | None
    intent_fingerprint: str | None
