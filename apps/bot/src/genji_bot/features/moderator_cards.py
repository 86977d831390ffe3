"""The map edit request card moderators act on in the verification queue."""

from __future__ import annotations

from typing import Any

from genji_sdk.map_edits import MapEditResponse

from genji_bot.effects.port import NO_MENTIONS, Button, Embed, Field, Outgoing


def _changes(proposed: dict[str, Any]) -> str:
    return "\n".join(
        f"**{name.replace('_', ' ').title()}:** {value}" for name, value in proposed.items()
    )


def verification_card(edit: MapEditResponse) -> Outgoing:
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
