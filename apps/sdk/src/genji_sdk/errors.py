"""Errors raised by the event registry, payload codecs and envelope codec."""

from __future__ import annotations

__all__ = (
    "DuplicateRegistrationError",
    "HandlerCoverageError",
    "InvalidEventSpecError",
    "MalformedEnvelopeError",
    "MalformedPayloadError",
    "PayloadTypeError",
    "RegistryError",
    "UnknownEventError",
    "UnsupportedPayloadVersionError",
)


class RegistryError(Exception):
    """Base class for every registry, payload and envelope error."""


class InvalidEventSpecError(RegistryError):
    """An event specification is internally inconsistent."""


class DuplicateRegistrationError(RegistryError):
    """An event name was registered twice."""


class UnknownEventError(RegistryError, LookupError):
    """An event name has no registration."""


class HandlerCoverageError(RegistryError):
    """A worker's handler set does not match the events its process owns."""


class PayloadTypeError(RegistryError, TypeError):
    """A payload is not an instance of the type registered for its event."""


class MalformedPayloadError(RegistryError, ValueError):
    """Payload data does not decode into the registered type for its event."""


class UnsupportedPayloadVersionError(RegistryError):
    """An envelope carries a payload version this registry cannot decode."""


class MalformedEnvelopeError(RegistryError, ValueError):
    """Job data does not decode into a job envelope."""
