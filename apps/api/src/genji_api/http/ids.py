"""Identifier types of request bodies and paths, bounded by their database columns."""

from __future__ import annotations

from typing import Annotated

import msgspec

BIGINT_MAX = 2**63 - 1
INTEGER_MAX = 2**31 - 1

UserId = Annotated[int, msgspec.Meta(gt=0, le=BIGINT_MAX)]
"""A Discord snowflake or a test user's id (core.users.id, a positive bigint)."""
