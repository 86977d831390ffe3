"""Registry of queue entrypoints: name, owning process, payload type and version."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

import msgspec

from genji_sdk import payloads as p
from genji_sdk.errors import (
    DuplicateRegistrationError,
    HandlerCoverageError,
    InvalidEventSpecError,
    MalformedPayloadError,
    PayloadTypeError,
    UnknownEventError,
)

__all__ = (
    "REGISTRY",
    "EventRegistry",
    "EventSpec",
    "Owner",
    "decode_payload",
    "encode_payload",
)

Owner = Literal["bot", "api"]
PayloadData = bytes | str | Mapping[str, Any]


@dataclass(frozen=True)
class EventSpec:
    """One entrypoint and the contract between its producers and its single owner.

    `entity_ordered` is False for read-model refreshes that reconcile to current state and
    so need not wait behind earlier unfinished jobs for the same entity.
    """

    name: str
    owner: Owner
    payload_type: type[msgspec.Struct]
    payload_version: int = 1
    entity_ordered: bool = True
    handler_timeout_seconds: float | None = None

    def __post_init__(self) -> None:
        problem = _spec_problem(self)
        if problem is not None:
            raise InvalidEventSpecError(f"{self.name or '<unnamed>'}: {problem}")


def _spec_problem(spec: EventSpec) -> str | None:
    if not spec.name or spec.name != spec.name.strip():
        return "name must be non-empty without surrounding whitespace"
    if spec.owner not in get_args(Owner):
        return f"owner must be one of {get_args(Owner)}, not {spec.owner!r}"
    if not (isinstance(spec.payload_type, type) and issubclass(spec.payload_type, msgspec.Struct)):
        return "payload_type must be a msgspec.Struct subclass"
    if spec.payload_version < 1:
        return "payload_version must be at least 1"
    if spec.handler_timeout_seconds is not None and spec.handler_timeout_seconds <= 0:
        return "handler_timeout_seconds must be positive"
    return None


class EventRegistry:
    """Event specifications by name; each name and each payload type is registered exactly
    once, so a payload type names its event (producers enqueue, and consumers register, by
    payload type)."""

    def __init__(self, specs: Iterable[EventSpec] = ()) -> None:
        self._specs: dict[str, EventSpec] = {}
        self._by_type: dict[type[msgspec.Struct], EventSpec] = {}
        for spec in specs:
            self.register(spec)

    def register(self, spec: EventSpec) -> EventSpec:
        if spec.name in self._specs:
            raise DuplicateRegistrationError(f"event {spec.name!r} is already registered")
        if (other := self._by_type.get(spec.payload_type)) is not None:
            raise DuplicateRegistrationError(
                f"{spec.payload_type.__qualname__} is already the payload of {other.name!r}"
            )
        self._specs[spec.name] = spec
        self._by_type[spec.payload_type] = spec
        return spec

    def get(self, name: str) -> EventSpec:
        try:
            return self._specs[name]
        except KeyError:
            raise UnknownEventError(f"event {name!r} is not registered") from None

    def for_payload(self, payload_type: type[msgspec.Struct]) -> EventSpec:
        """The event whose payload is `payload_type`."""
        try:
            return self._by_type[payload_type]
        except KeyError:
            raise UnknownEventError(
                f"{payload_type.__qualname__} is not the payload of a registered event"
            ) from None

    def name_of(self, payload: msgspec.Struct) -> str:
        """The name of the event `payload` is the payload of."""
        return self.for_payload(type(payload)).name

    def owned_by(self, owner: Owner) -> list[EventSpec]:
        return [spec for spec in self._specs.values() if spec.owner == owner]

    def names(self) -> list[str]:
        return list(self._specs)

    def verify_handlers(self, owner: Owner, handler_names: Iterable[str]) -> None:
        """Fail unless `handler_names` is exactly the set of events `owner` consumes."""
        given = set(handler_names)
        owned = {spec.name for spec in self.owned_by(owner)}
        problems = []
        if missing := sorted(owned - given):
            problems.append(f"missing handlers for {missing}")
        if unknown := sorted(name for name in given - owned if name not in self._specs):
            problems.append(f"handlers for unregistered events {unknown}")
        if foreign := sorted(name for name in given - owned if name in self._specs):
            problems.append(f"handlers for events owned by another process {foreign}")
        if problems:
            raise HandlerCoverageError(f"{owner} worker: " + "; ".join(problems))

    def encode(self, name: str, payload: msgspec.Struct, *, check: bool = True) -> bytes:
        """JSON for `payload`; with `check`, also decoded back so a bad one fails here.

        Construction does not check field types or constraints such as code patterns; a bad
        payload must fail its producer, not be held later by the consuming worker. enqueue_job
        passes check=False because the database applies the same contract and names the field.
        """
        spec = self.get(name)
        if type(payload) is not spec.payload_type:
            raise PayloadTypeError(
                f"event {name!r} expects {spec.payload_type.__qualname__}, "
                f"got {type(payload).__qualname__}"
            )
        data = msgspec.json.encode(payload)
        if check:
            self.decode(name, data)
        return data

    def decode(self, name: str, data: PayloadData) -> msgspec.Struct:
        spec = self.get(name)
        try:
            if isinstance(data, bytes | str):
                return msgspec.json.decode(data, type=spec.payload_type)
            return msgspec.convert(data, type=spec.payload_type)
        except msgspec.DecodeError as exc:
            raise MalformedPayloadError(f"event {name!r}: malformed payload: {exc}") from exc

    def __len__(self) -> int:
        return len(self._specs)

    def __iter__(self) -> Iterator[EventSpec]:
        return iter(list(self._specs.values()))

    def __contains__(self, name: object) -> bool:
        return name in self._specs


def _bot(
    name: str, payload_type: type[msgspec.Struct], *, entity_ordered: bool = True
) -> EventSpec:
    return EventSpec(
        name=name, owner="bot", payload_type=payload_type, entity_ordered=entity_ordered
    )


def _api(name: str, payload_type: type[msgspec.Struct]) -> EventSpec:
    return EventSpec(name=name, owner="api", payload_type=payload_type)


REGISTRY = EventRegistry(
    [
        _bot("api.completion.autoverification.failed", p.FailedAutoverifyEvent),
        _bot("api.completion.submission", p.CompletionCreatedEvent),
        _bot("api.completion.upvote", p.UpvoteUpdateEvent, entity_ordered=False),
        _bot("api.completion.verification", p.VerificationChangedEvent),
        _bot("api.completion.verification.delete", p.VerificationMessageDeleteEvent),
        _bot("api.map_edit.created", p.MapEditCreatedEvent),
        _bot("api.map_edit.resolved", p.MapEditResolvedEvent),
        _bot("api.newsfeed.create", p.NewsfeedDispatchEvent),
        _bot("api.notification.delivery", p.NotificationDeliveryEvent),
        _bot("api.playtest.create", p.PlaytestCreatedEvent),
        _bot("api.playtest.vote.cast", p.PlaytestVoteCastEvent, entity_ordered=False),
        _bot("api.playtest.vote.remove", p.PlaytestVoteRemovedEvent, entity_ordered=False),
        _bot("api.playtest.approve", p.PlaytestApprovedEvent),
        _bot("api.playtest.force_accept", p.PlaytestForceAcceptedEvent),
        _bot("api.playtest.force_deny", p.PlaytestForceDeniedEvent),
        _bot("api.playtest.reset", p.PlaytestResetEvent),
        _bot("api.tournament.completion.created", p.TournamentCompletionCreatedEvent),
        _bot("api.tournament.verification.changed", p.TournamentVerificationChangedEvent),
        _bot("api.tournament.rollover", p.TournamentRolloverEvent),
        _bot("api.tournament.results", p.TournamentEditionResultsEvent),
        _bot("api.xp.grant", p.XpGrantEvent),
        _api("completion.ocr.requested", p.OcrVerificationRequestedEvent),
        _api("tournament.ocr.requested", p.TournamentOcrVerificationRequestedEvent),
        _api("map.linked.newsfeed.requested", p.LinkedMapNewsfeedRequestedEvent),
    ]
)


def encode_payload(name: str, payload: msgspec.Struct) -> bytes:
    """Encode `payload` as JSON after checking it is the type registered for `name`."""
    return REGISTRY.encode(name, payload)


def decode_payload(name: str, data: PayloadData) -> msgspec.Struct:
    """Decode JSON text or already-parsed JSON data into the type registered for `name`."""
    return REGISTRY.decode(name, data)
