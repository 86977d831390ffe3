"""Discord ids as requests carry them: within the database's bigint, so an out-of-range value is
a 400 before anything is checked."""

from __future__ import annotations

from typing import Annotated

import msgspec

DiscordId = Annotated[int, msgspec.Meta(gt=0, le=2**63 - 1)]
