"""Discord ids as requests carry them: within the database's bigint, so an out-of-range value is
a 400 before anything is checked. The bound is also stated for the API's OpenAPI document, which
would otherwise print it as a float (9.223372036854776e+18, that is 2**63)."""

from __future__ import annotations

from typing import Annotated

import msgspec

BIGINT_MAX = 2**63 - 1

DiscordId = Annotated[
    int, msgspec.Meta(gt=0, le=BIGINT_MAX, extra_json_schema={"extra": {"maximum": BIGINT_MAX}})
]
