"""The recorded state of one Discord send, as the API's send binding endpoints return it."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal, get_args

import msgspec

BindingState = Literal["intended", "uncertain", "completed", "skipped", "failed"]

MirrorKind = Literal[
    "completion.verification_message",
    "completion.message",
    "playtest.thread",
    "map_edit.verification_message",
    "tournament_completion.verification_message",
]
"""The domain columns that mirror a completed send (the API registers a writer for each)."""
MIRROR_KINDS: Final[frozenset[str]] = frozenset(get_args(MirrorKind))


class Mirror(msgspec.Struct, frozen=True):
    """A domain column the API writes with the send's binding: `entity_id` is its record."""

    kind: MirrorKind
    entity_id: int


class SendState(msgspec.Struct, frozen=True, kw_only=True):
    state: BindingState
    fresh: bool
    """True when this request recorded the intent: the caller sends now."""
    channel_id: int | None
    message_id: int | None
    thread_id: int | None
    fingerprint: str | None
    """The fingerprint recorded with the intent, which a reconciliation looks for."""
    created_at: datetime
    detail: dict[str, Any] = msgspec.field(default_factory=dict)


class SendReleased(msgspec.Struct, frozen=True, kw_only=True):
    released: bool
