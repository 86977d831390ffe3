"""The SDK's mirror kinds are exactly the mirrors the API can write."""

from __future__ import annotations

from genji_api.effects import mirror_registry  # noqa: F401  (registers the mirrors)
from genji_api.effects.mirrors import MIRRORS
from genji_sdk.sends import MIRROR_KINDS


def test_every_sdk_mirror_kind_has_one_api_writer_and_no_other_is_registered() -> None:
    assert set(MIRRORS) == MIRROR_KINDS
