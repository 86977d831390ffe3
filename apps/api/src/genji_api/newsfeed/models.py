"""Newsfeed request and response bodies. A request body is a tagged NewsfeedPayload; the answers
are the SDK's (genji_sdk.newsfeed), re-exported here."""

from __future__ import annotations

from genji_sdk.newsfeed import NewsfeedCreatedResponse, NewsfeedEntryResponse

__all__ = ("NewsfeedCreatedResponse", "NewsfeedEntryResponse")
