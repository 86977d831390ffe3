"""The map edit request card moderators act on in the verification queue."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from genji_bot.effects.port import NO_MENTIONS, Button, Embed, Field, Outgoing


class MapEdit(msgspec.Struct, frozen=True, kw_only=True):
    """The fields of GET /maps/map-edits/{id} the handlers use."""

    id: int
    code: str
    proposed_changes: dict[str, Any]
    reason: str
    created_by: int
    created_at: datetime
    message_id: int | None
    accepted: bool | None


def _changes(proposed: dict[str, Any]) -> str:
    return "\n".join(
        f"**{name.replace('_', ' ').title()}:** {value}" for name, value in proposed.items()
    )


def verification_card(edit: MapEdit) -> Outgoing:
    return Outgoing(
        embed=Embed(
            title="Map Edit Request",
            fields=(
                Field("Map Code", edit.code, inline=True),
                Field("Requested By", f"<@{edit.created_by}>", inline=True),
                Field("Proposed Changes", _changes(edit.proposed_changes) or "None"),
                Field("Reason", edit.reason),
            ),
            footer=f"Edit request {edit.id}",
        ),
        buttons=(
            Button(f"map_edit:accept:v1:{edit.id}", "Accept", "success"),
            Button(f"map_edit:reject:v1:{edit.id}", "Reject", "danger"),
        ),
        mentions=NO_MENTIONS,
    )
