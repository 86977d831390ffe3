"""Genji Shimada sdk."""

from genji_sdk.context import ClaimToken, JobContext
from genji_sdk.envelope import (
    TRACE_ALLOWLIST,
    TRACE_VALUE_MAX_CHARS,
    JobEnvelope,
    build_envelope,
    decode_envelope,
    decode_envelope_payload,
    encode_envelope,
    sanitize_trace,
)
from genji_sdk.errors import (
    DuplicateRegistrationError,
    HandlerCoverageError,
    InvalidEventSpecError,
    MalformedEnvelopeError,
    MalformedPayloadError,
    PayloadTypeError,
    RegistryError,
    UnknownEventError,
    UnsupportedPayloadVersionError,
)
from genji_sdk.registry import (
    REGISTRY,
    EventRegistry,
    EventSpec,
    Owner,
    decode_payload,
    encode_payload,
)

__all__ = (
    "REGISTRY",
    "TRACE_ALLOWLIST",
    "TRACE_VALUE_MAX_CHARS",
    "ClaimToken",
    "DuplicateRegistrationError",
    "EventRegistry",
    "EventSpec",
    "HandlerCoverageError",
    "InvalidEventSpecError",
    "JobContext",
    "JobEnvelope",
    "MalformedEnvelopeError",
    "MalformedPayloadError",
    "Owner",
    "PayloadTypeError",
    "RegistryError",
    "UnknownEventError",
    "UnsupportedPayloadVersionError",
    "build_envelope",
    "decode_envelope",
    "decode_envelope_payload",
    "decode_payload",
    "encode_envelope",
    "encode_payload",
    "sanitize_trace",
)
