"""Transport-neutral job envelope stored as the queue row's payload."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final
from uuid import UUID

import msgspec

from genji_sdk.errors import MalformedEnvelopeError, UnsupportedPayloadVersionError
from genji_sdk.registry import REGISTRY, EventRegistry

__all__ = (
    "TRACE_ALLOWLIST",
    "TRACE_VALUE_MAX_CHARS",
    "JobEnvelope",
    "build_envelope",
    "decode_envelope",
    "decode_envelope_payload",
    "encode_envelope",
    "sanitize_trace",
)

TRACE_ALLOWLIST: Final = frozenset(
    {"traceparent", "tracestate", "sentry-trace", "baggage", "x-request-id"}
)
TRACE_VALUE_MAX_CHARS: Final = 512

NonEmptyStr = Annotated[str, msgspec.Meta(min_length=1)]


class JobEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    """Public job identity, event identity and the still-encoded domain payload.

    `payload` stays plain JSON data so a worker can hold an unsupported version with a
    diagnostic instead of failing to read the envelope at all.
    """

    job_id: UUID
    event_name: NonEmptyStr
    event_key: NonEmptyStr
    payload_version: Annotated[int, msgspec.Meta(ge=1)]
    payload: dict[str, Any]
    trace: dict[str, str] = {}


def sanitize_trace(headers: Mapping[str, str]) -> dict[str, str]:
    """Keep only allow-listed tracing headers, lower-cased and length-capped.

    Credentials such as authorization, cookies and API keys never reach queue storage.
    """
    kept: dict[str, str] = {}
    for key, value in headers.items():
        name = key.lower()
        if name in TRACE_ALLOWLIST and name not in kept and isinstance(value, str):
            kept[name] = value[:TRACE_VALUE_MAX_CHARS]
    return kept


def build_envelope(
    *,
    job_id: UUID,
    event_name: str,
    event_key: str,
    payload: msgspec.Struct,
    trace: Mapping[str, str] | None = None,
    registry: EventRegistry = REGISTRY,
) -> JobEnvelope:
    """Check `payload` against the registry and wrap it with its identities."""
    spec = registry.get(event_name)
    data = registry.encode(event_name, payload)
    return JobEnvelope(
        job_id=job_id,
        event_name=event_name,
        event_key=event_key,
        payload_version=spec.payload_version,
        payload=msgspec.json.decode(data, type=dict[str, Any]),
        trace=sanitize_trace(trace or {}),
    )


def encode_envelope(envelope: JobEnvelope) -> bytes:
    return msgspec.json.encode(envelope)


def decode_envelope(data: bytes | str) -> JobEnvelope:
    """Decode queue row bytes; the trace is re-sanitized in case the row was written elsewhere."""
    try:
        envelope = msgspec.json.decode(data, type=JobEnvelope)
    except msgspec.DecodeError as exc:
        raise MalformedEnvelopeError(f"malformed job envelope: {exc}") from exc
    trace = sanitize_trace(envelope.trace)
    if trace != envelope.trace:
        envelope = msgspec.structs.replace(envelope, trace=trace)
    return envelope


def decode_envelope_payload(
    envelope: JobEnvelope, registry: EventRegistry = REGISTRY
) -> msgspec.Struct:
    """Decode the domain payload, refusing versions the registry does not produce."""
    spec = registry.get(envelope.event_name)
    if envelope.payload_version != spec.payload_version:
        raise UnsupportedPayloadVersionError(
            f"event {envelope.event_name!r}: payload version {envelope.payload_version} "
            f"is not supported (expected {spec.payload_version})"
        )
    return registry.decode(envelope.event_name, envelope.payload)
