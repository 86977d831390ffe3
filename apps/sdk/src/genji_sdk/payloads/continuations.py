"""Payloads of the continuations run by the API worker."""

from __future__ import annotations

import msgspec

from genji_sdk.payloads.common import OverwatchCode

__all__ = (
    "LinkedMapNewsfeedRequestedEvent",
    "OcrVerificationRequestedEvent",
    "TournamentOcrVerificationRequestedEvent",
)


class OcrVerificationRequestedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`completion.ocr.requested`: try to auto-verify a screenshot-only completion."""

    completion_id: int
    user_id: int
    code: OverwatchCode
    time: float
    screenshot: str


class TournamentOcrVerificationRequestedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`tournament.ocr.requested`: try to auto-verify a screenshot-only tournament run."""

    tournament_completion_id: int
    cycle_id: int
    user_id: int
    code: OverwatchCode
    time: float
    screenshot: str


class LinkedMapNewsfeedRequestedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`map.linked.newsfeed.requested`: announce a link once the official map's playtest exists.

    The playtest-create job it waits for is the job's dependency, not part of the payload.
    """

    official_code: OverwatchCode
    unofficial_code: OverwatchCode
    official_map_id: int
