"""Every domain column that mirrors a send, registered with the events that may write it."""

from __future__ import annotations

from genji_api.effects.mirrors import register_mirror
from genji_api.map_edits.repository import write_verification_message as map_edit_message
from genji_api.tournaments.completion_repository import (
    write_verification_message as tournament_review_message,
)

__all__ = ("register_mirror",)

# One register_mirror(kind, events, writer) line per mirror, writers from their feature.
register_mirror("map_edit.verification_message", ["api.map_edit.created"], map_edit_message)
register_mirror(
    "tournament_completion.verification_message",
    ["api.tournament.completion.created"],
    tournament_review_message,
)
