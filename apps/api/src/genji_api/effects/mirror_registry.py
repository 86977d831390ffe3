"""Every domain column that mirrors a send, registered with the events that may write it."""

from __future__ import annotations

from genji_api.effects.mirrors import register_mirror
from genji_api.playtests.threads import write_thread

__all__ = ("register_mirror",)

# One register_mirror(kind, events, writer) line per mirror, writers from their feature.
register_mirror("playtest.thread", ["api.playtest.create"], write_thread)
