"""Bodies of the effect binding endpoints (the bot's Discord sends)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from genji_sdk.sends import SendReleased, SendState

from genji_api.http.ids import bigint_meta
from genji_api.http.types import RequestBody

__all__ = (
    "Mirror",
    "SendBegin",
    "SendComplete",
    "SendRelease",
    "SendReleased",
    "SendSettle",
    "SendState",
)

Destination = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
DiscordId = Annotated[int, bigint_meta()]
Fingerprint = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
MirrorKind = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]


class SendBegin(RequestBody, frozen=True):
    destination: Destination
    fingerprint: Fingerprint
    """A digest of the rendered message, compared with the destination's history on replay."""


class Mirror(RequestBody, frozen=True):
    """A domain column that must hold the sent id, written with the binding."""

    kind: MirrorKind
    entity_id: Annotated[int, bigint_meta()]


class SendComplete(RequestBody, frozen=True):
    destination: Destination
    channel_id: DiscordId | None = None
    message_id: DiscordId | None = None
    thread_id: DiscordId | None = None
    mirror: Mirror | None = None


class SendSettle(RequestBody, frozen=True):
    destination: Destination
    state: Literal["skipped", "failed", "uncertain"]
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class SendRelease(RequestBody, frozen=True):
    destination: Destination
