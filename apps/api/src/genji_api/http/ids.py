"""Identifier types of request bodies and paths, bounded by their database columns.

Litestar writes a bound into the OpenAPI document as a float, and 2**63 - 1 is no float:
it would print as 9.223372036854776e+18, which is 2**63. Each 64-bit bound therefore also
states its exact value for the document (`BIGINT_SCHEMA`).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

BIGINT_MAX = 2**63 - 1
INTEGER_MAX = 2**31 - 1

BIGINT_SCHEMA: dict[str, Any] = {"maximum": BIGINT_MAX}
"""The exact bound of a bigint, for a `Parameter(schema_extra=...)`."""


def bigint_meta(description: str | None = None) -> msgspec.Meta:
    """A positive bigint field whose document shows the exact bound."""
    return msgspec.Meta(
        gt=0, le=BIGINT_MAX, description=description, extra_json_schema={"extra": BIGINT_SCHEMA}
    )


UserId = Annotated[int, bigint_meta()]
"""A Discord snowflake or a test user's id (core.users.id, a positive bigint)."""
