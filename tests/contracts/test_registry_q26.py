"""Q26: every entrypoint has one owner and a payload contract producers and workers share."""

from __future__ import annotations

import typing
from datetime import UTC, datetime
from uuid import UUID, uuid4

import msgspec
import pytest
from genji_devstack.payload_samples import SAMPLES
from genji_sdk import (
    REGISTRY,
    ClaimToken,
    DuplicateRegistrationError,
    EventRegistry,
    EventSpec,
    HandlerCoverageError,
    InvalidEventSpecError,
    JobContext,
    MalformedEnvelopeError,
    MalformedPayloadError,
    PayloadTypeError,
    UnknownEventError,
    UnsupportedPayloadVersionError,
    build_envelope,
    decode_envelope,
    decode_envelope_payload,
    decode_payload,
    encode_envelope,
    encode_payload,
    sanitize_trace,
)
from genji_sdk import payloads as p

pytestmark = pytest.mark.queue

LEGACY_BOT_EVENTS = {
    "api.completion.autoverification.failed",
    "api.completion.submission",
    "api.completion.upvote",
    "api.completion.verification",
    "api.completion.verification.delete",
    "api.map_edit.created",
    "api.map_edit.resolved",
    "api.newsfeed.create",
    "api.notification.delivery",
    "api.playtest.create",
    "api.playtest.vote.cast",
    "api.playtest.vote.remove",
    "api.playtest.approve",
    "api.playtest.force_accept",
    "api.playtest.force_deny",
    "api.playtest.reset",
    "api.tournament.completion.created",
    "api.tournament.verification.changed",
    "api.tournament.rollover",
    "api.tournament.results",
    "api.xp.grant",
}
API_CONTINUATIONS = {
    "completion.ocr.requested",
    "tournament.ocr.requested",
    "map.linked.newsfeed.requested",
}
READ_MODEL_REFRESHES = {
    "api.completion.upvote",
    "api.playtest.vote.cast",
    "api.playtest.vote.remove",
}


def test_q26_registry_has_24_entrypoints_with_one_owner_each() -> None:
    names = REGISTRY.names()
    assert len(REGISTRY) == len(names) == len(set(names)) == 24
    assert set(names) == LEGACY_BOT_EVENTS | API_CONTINUATIONS
    for spec in REGISTRY:
        assert spec.owner in ("bot", "api")
        assert sum(spec in REGISTRY.owned_by(owner) for owner in ("bot", "api")) == 1


def test_q26_bot_owns_21_api_events_and_api_owns_3_continuations() -> None:
    assert {spec.name for spec in REGISTRY.owned_by("bot")} == LEGACY_BOT_EVENTS
    assert {spec.name for spec in REGISTRY.owned_by("api")} == API_CONTINUATIONS


def test_q26_only_read_model_refreshes_skip_entity_ordering() -> None:
    unordered = {spec.name for spec in REGISTRY if not spec.entity_ordered}
    assert unordered == READ_MODEL_REFRESHES


def test_q26_every_registered_event_has_a_sample() -> None:
    assert set(SAMPLES) == set(REGISTRY.names())


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_q26_payload_round_trip(name: str) -> None:
    sample = SAMPLES[name]
    spec = REGISTRY.get(name)
    assert type(sample) is spec.payload_type
    assert spec.payload_version == 1

    data = encode_payload(name, sample)
    assert decode_payload(name, data) == sample
    assert decode_payload(name, data.decode()) == sample
    assert decode_payload(name, msgspec.json.decode(data)) == sample

    envelope = build_envelope(
        job_id=uuid4(), event_name=name, event_key=f"{name}:1", payload=sample
    )
    reread = decode_envelope(encode_envelope(envelope))
    assert reread == envelope
    assert decode_envelope_payload(reread) == sample


def test_q26_duplicate_registration_rejected() -> None:
    spec = REGISTRY.get("api.xp.grant")
    registry = EventRegistry([spec])
    with pytest.raises(DuplicateRegistrationError, match=r"api\.xp\.grant"):
        registry.register(spec)
    rival = EventSpec(name="api.xp.grant", owner="api", payload_type=p.XpGrantEvent)
    with pytest.raises(DuplicateRegistrationError):
        registry.register(rival)
    with pytest.raises(DuplicateRegistrationError):
        EventRegistry([*REGISTRY, rival])
    assert len(registry) == 1
    assert registry.get("api.xp.grant").owner == "bot"


def test_q26_unknown_event_rejected() -> None:
    obsolete = "api.tournament.cycle_started"
    assert obsolete not in REGISTRY
    with pytest.raises(UnknownEventError, match=obsolete):
        REGISTRY.get(obsolete)
    with pytest.raises(UnknownEventError):
        encode_payload(obsolete, SAMPLES["api.tournament.rollover"])
    with pytest.raises(UnknownEventError):
        decode_payload(obsolete, b"{}")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        pytest.param("api.completion.submission", b"{not json", id="not-json"),
        pytest.param("api.completion.submission", b"[1]", id="not-an-object"),
        pytest.param("api.map_edit.created", {}, id="missing-field"),
        pytest.param("api.newsfeed.create", {"newsfeed_id": "12"}, id="wrong-type"),
        pytest.param("api.playtest.create", {"code": "abc", "playtest_id": 1}, id="bad-code"),
        pytest.param(
            "api.playtest.force_accept",
            {"difficulty": "Beginner", "verifier_id": 1, "thread_id": 2},
            id="unknown-difficulty",
        ),
        pytest.param(
            "api.completion.verification",
            {"completion_id": 1, "verified": True, "verified_by": 2},
            id="missing-transition-identity",
        ),
    ],
)
def test_q26_malformed_payload_rejected(name: str, data: bytes | dict[str, object]) -> None:
    with pytest.raises(MalformedPayloadError, match=name.replace(".", r"\.")):
        decode_payload(name, data)


def test_q26_producer_payload_contract_enforced() -> None:
    with pytest.raises(PayloadTypeError, match="PlaytestVoteCastEvent"):
        encode_payload("api.playtest.vote.remove", SAMPLES["api.playtest.vote.cast"])
    bad_code = p.PlaytestCreatedEvent(code="lower", playtest_id=3)
    with pytest.raises(MalformedPayloadError, match=r"api\.playtest\.create"):
        encode_payload("api.playtest.create", bad_code)


def test_q26_unsupported_payload_version_held() -> None:
    name = "api.completion.submission"
    envelope = build_envelope(
        job_id=uuid4(),
        event_name=name,
        event_key="completion:submission:1:9001",
        payload=SAMPLES[name],
    )
    future = msgspec.structs.replace(envelope, payload_version=2)
    with pytest.raises(UnsupportedPayloadVersionError, match="version 2"):
        decode_envelope_payload(decode_envelope(encode_envelope(future)))


def test_q26_malformed_envelope_rejected() -> None:
    with pytest.raises(MalformedEnvelopeError):
        decode_envelope(b'{"job_id": "not-a-uuid"}')
    with pytest.raises(MalformedEnvelopeError):
        decode_envelope(b"\x00garbage")


def test_q26_worker_handler_sets_must_match_ownership() -> None:
    bot_names = [spec.name for spec in REGISTRY.owned_by("bot")]
    REGISTRY.verify_handlers("bot", bot_names)
    with pytest.raises(HandlerCoverageError, match=r"missing handlers.*api\.xp\.grant"):
        REGISTRY.verify_handlers("bot", [n for n in bot_names if n != "api.xp.grant"])
    with pytest.raises(HandlerCoverageError, match="unregistered"):
        REGISTRY.verify_handlers("bot", [*bot_names, "api.tournament.cycle_completed"])
    with pytest.raises(HandlerCoverageError, match="another process"):
        REGISTRY.verify_handlers("bot", [*bot_names, "completion.ocr.requested"])


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({"name": ""}, id="empty-name"),
        pytest.param({"owner": "worker"}, id="unknown-owner"),
        pytest.param({"payload_type": dict}, id="not-a-struct"),
        pytest.param({"payload_version": 0}, id="version-zero"),
        pytest.param({"handler_timeout_seconds": 0}, id="zero-timeout"),
    ],
)
def test_q26_invalid_event_spec_rejected(changes: dict[str, object]) -> None:
    fields: dict[str, object] = {
        "name": "api.newsfeed.create",
        "owner": "bot",
        "payload_type": p.NewsfeedDispatchEvent,
    }
    with pytest.raises(InvalidEventSpecError):
        EventSpec(**(fields | changes))  # type: ignore[arg-type]


def test_q26_envelope_trace_allowlist_drops_credentials() -> None:
    headers = {
        "Authorization": "Bearer secret-token",
        "Cookie": "session=abc",
        "X-API-Key": "key-123",
        "X-PYTEST-ENABLED": "1",
        "Traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "SENTRY-TRACE": "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
        "baggage": "x" * 2000,
        "X-Request-Id": "req-42",
    }
    trace = sanitize_trace(headers)
    assert set(trace) == {"traceparent", "sentry-trace", "baggage", "x-request-id"}
    assert trace["baggage"] == "x" * 512
    assert trace["x-request-id"] == "req-42"

    name = "api.newsfeed.create"
    envelope = build_envelope(
        job_id=uuid4(),
        event_name=name,
        event_key="newsfeed:create:3344",
        payload=SAMPLES[name],
        trace=headers,
    )
    stored = encode_envelope(envelope)
    for secret in (b"secret-token", b"session=abc", b"key-123", b"X-PYTEST"):
        assert secret not in stored

    smuggled = msgspec.structs.replace(envelope, trace={"authorization": "Bearer leaked"})
    assert decode_envelope(encode_envelope(smuggled)).trace == {}


def test_q26_job_context_exposes_no_transport_types() -> None:
    allowed = {"builtins", "uuid", "datetime", "collections.abc", "genji_sdk.context"}
    for cls in (JobContext, ClaimToken):
        for hint in typing.get_type_hints(cls).values():
            origin = typing.get_origin(hint) or hint
            assert origin.__module__ in allowed, (cls.__name__, hint)
    claim = ClaimToken(queue_job_id=17, queue_manager_id=UUID(int=1), claimed_at=datetime.now(UTC))
    context = JobContext(
        job_id=uuid4(),
        event_name="api.xp.grant",
        event_key="xp:grant:44021",
        attempt=1,
        retry_generation=0,
        claim=claim,
    )
    assert context.trace == {}
