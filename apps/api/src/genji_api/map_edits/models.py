"""Bodies of the map edit request routes."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.map_edits import MapEditResponse
from genji_sdk.payloads.common import DifficultyAll, OverwatchCode

from genji_api.http.types import RequestBody, ResponseBody

__all__ = (
    "Checkpoints",
    "MapEditCreateRequest",
    "MapEditCreated",
    "MapEditMessageRequest",
    "MapEditResolveRequest",
    "MapEditResponse",
    "MapName",
    "ProposedChanges",
)

MapName = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
Checkpoints = Annotated[int, msgspec.Meta(gt=0)]


class ProposedChanges(RequestBody, frozen=True, kw_only=True):
    """The fields an edit request may change; an absent field stays as it is."""

    map_name: MapName | msgspec.UnsetType = msgspec.UNSET
    category: str | msgspec.UnsetType = msgspec.UNSET
    checkpoints: Checkpoints | msgspec.UnsetType = msgspec.UNSET
    difficulty: DifficultyAll | msgspec.UnsetType = msgspec.UNSET
    archived: bool | msgspec.UnsetType = msgspec.UNSET
    hidden: bool | msgspec.UnsetType = msgspec.UNSET
    official: bool | msgspec.UnsetType = msgspec.UNSET

    def as_dict(self) -> dict[str, Any]:
        """Only the fields the request names."""
        proposed: dict[str, Any] = msgspec.to_builtins(self)
        return proposed


class MapEditCreateRequest(RequestBody, frozen=True, kw_only=True):
    code: OverwatchCode
    proposed_changes: ProposedChanges
    reason: Annotated[str, msgspec.Meta(min_length=1)]
    created_by: int


class MapEditCreated(ResponseBody, frozen=True, kw_only=True):
    id: int
    job_status: JobStatusResponse


class MapEditResolveRequest(RequestBody, frozen=True, kw_only=True):
    accepted: bool
    resolved_by: int
    rejection_reason: str | None = None
    send_to_playtest: bool = False


class MapEditMessageRequest(RequestBody, frozen=True, kw_only=True):
    message_id: int
