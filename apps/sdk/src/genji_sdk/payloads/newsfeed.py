"""Payload of the newsfeed delivery event consumed by the bot."""

from __future__ import annotations

import msgspec

__all__ = ("NewsfeedDispatchEvent",)


class NewsfeedDispatchEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.newsfeed.create`: a stored newsfeed entry must be posted."""

    newsfeed_id: int
