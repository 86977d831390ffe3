"""Newsfeed entries: the payload stored per entry, tagged by its `type`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads.common import OverwatchCode


class _Entry(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    pass


class NewsfeedRecord(_Entry, tag="record", frozen=True, kw_only=True):
    code: OverwatchCode
    map_name: str
    time: float
    video: str | None = None
    rank_num: int
    name: str
    medal: str | None = None
    difficulty: str | None = None


class NewsfeedNewMap(_Entry, tag="new_map", frozen=True, kw_only=True):
    code: OverwatchCode
    map_name: str
    difficulty: str | None = None
    creators: list[str]
    official: bool = True


class NewsfeedArchive(_Entry, tag="archive", frozen=True, kw_only=True):
    code: OverwatchCode
    map_name: str
    reason: str


class NewsfeedUnarchive(_Entry, tag="unarchive", frozen=True, kw_only=True):
    code: OverwatchCode
    map_name: str
    reason: str


class NewsfeedBulkArchive(_Entry, tag="bulk_archive", frozen=True, kw_only=True):
    codes: list[OverwatchCode]
    reason: str


class NewsfeedBulkUnarchive(_Entry, tag="bulk_unarchive", frozen=True, kw_only=True):
    codes: list[OverwatchCode]
    reason: str


class NewsfeedGuide(_Entry, tag="guide", frozen=True, kw_only=True):
    code: OverwatchCode
    guide_url: str
    name: str


class NewsfeedLegacyRecord(_Entry, tag="legacy_record", frozen=True, kw_only=True):
    code: OverwatchCode
    affected_count: int
    reason: str


class NewsfeedMapEdit(_Entry, tag="map_edit", frozen=True, kw_only=True):
    code: OverwatchCode
    changes: dict[str, list[str | int | float | bool | None]]
    """Field name -> [old value, new value]."""
    reason: str


class NewsfeedRole(_Entry, tag="role", frozen=True, kw_only=True):
    user_id: int
    name: str
    added: list[str]


class NewsfeedAnnouncement(_Entry, tag="announcement", frozen=True, kw_only=True):
    title: str
    content: str
    from_discord: bool = False


class NewsfeedLinkedMap(_Entry, tag="linked_map", frozen=True, kw_only=True):
    official_code: OverwatchCode
    unofficial_code: OverwatchCode
    playtest_id: int | None = None
    """The official map's playtest thread, when the link made it enter playtesting."""


class NewsfeedUnlinkedMap(_Entry, tag="unlinked_map", frozen=True, kw_only=True):
    official_code: OverwatchCode
    unofficial_code: OverwatchCode
    reason: str


NewsfeedPayload = (
    NewsfeedRecord
    | NewsfeedNewMap
    | NewsfeedArchive
    | NewsfeedUnarchive
    | NewsfeedBulkArchive
    | NewsfeedBulkUnarchive
    | NewsfeedGuide
    | NewsfeedLegacyRecord
    | NewsfeedMapEdit
    | NewsfeedRole
    | NewsfeedAnnouncement
    | NewsfeedLinkedMap
    | NewsfeedUnlinkedMap
)


class NewsfeedCreatedResponse(msgspec.Struct, frozen=True, kw_only=True):
    newsfeed_id: int
    job_status: JobStatusResponse


class NewsfeedEntryResponse(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    timestamp: datetime
    payload: dict[str, Any]
    """As stored; entries written before the current payload types are returned unchanged."""
