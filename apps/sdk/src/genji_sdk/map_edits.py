"""A map edit request as the API serves it and the bot reads it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec


class MapEditResponse(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    map_id: int
    code: str
    proposed_changes: dict[str, Any]
    reason: str
    created_by: int
    created_at: datetime
    message_id: int | None
    accepted: bool | None
    resolved_by: int | None
    resolved_at: datetime | None
    rejection_reason: str | None
