"""The order tests are handed to xdist workers: the long ones (whole stacks, real processes,
Sqitch runs) first, so no worker is left with one of them while the others have finished."""

from __future__ import annotations

import pytest

# Path prefixes of the long tests, longest first; everything else keeps its collected order.
SLOW_FIRST = (
    "tests/soak/",
    "tests/lifecycle/",
    "tests/schema/test_sqitch_q15.py",
    "tests/schema/test_revert_scripts_q15.py",
    "tests/bot/recovery/",
    "tests/bot/completions/",
    "tests/bot/real_client/",
    "tests/bot/sends/",
    "tests/api/test_openapi_contract.py",
    "tests/test_acceptance_gate.py",
)


def rank(item: pytest.Item) -> int:
    for position, prefix in enumerate(SLOW_FIRST):
        if item.nodeid.startswith(prefix):
            return position
    return len(SLOW_FIRST)


def slow_first(items: list[pytest.Item]) -> None:
    items.sort(key=rank)
