"""Base types for request and response bodies."""

from __future__ import annotations

import msgspec


class RequestBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A request body: unknown fields are a 400, never silently dropped."""


class ResponseBody(msgspec.Struct, frozen=True, kw_only=True):
    """A response body."""
