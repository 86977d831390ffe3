"""Every domain column that mirrors a send, registered with the events that may write it."""

from __future__ import annotations

from genji_api.completions.repository import write_completion_message, write_verification_message
from genji_api.effects.mirrors import register_mirror
from genji_api.map_edits.repository import write_verification_message as map_edit_message
from genji_api.playtests.threads import write_thread
from genji_api.tournaments.completion_repository import (
    write_verification_message as tournament_review_message,
)

__all__ = ("register_mirror",)

# One register_mirror(kind, events, writer) line per mirror, writers from their feature.
register_mirror(
    "completion.verification_message", ["api.completion.submission"], write_verification_message
)
register_mirror("completion.message", ["api.completion.verification"], write_completion_message)
register_mirror("playtest.thread", ["api.playtest.create"], write_thread)
register_mirror("map_edit.verification_message", ["api.map_edit.created"], map_edit_message)
register_mirror(
    "tournament_completion.verification_message",
    ["api.tournament.completion.created"],
    tournament_review_message,
)
