"""Every producer, as one case each: how to set it up and how to trigger it.

Each feature keeps its cases in its own module; CASES lists them all.
"""

from __future__ import annotations

from producer_cases import links
from producer_cases.case import ProducerCase, ProducerEnv

CASES: list[ProducerCase] = []
CASES += links.CASES

__all__ = ("CASES", "ProducerCase", "ProducerEnv")
