"""Every producer, as one case each: how to set it up and how to trigger it.

Each feature keeps its cases in its own module; CASES lists them all.
"""

from __future__ import annotations

from . import completions, guides, links, maps, ocr_jobs, tournaments
from .case import ProducerCase, ProducerEnv

CASES: list[ProducerCase] = []
CASES += completions.CASES
CASES += guides.CASES
CASES += links.CASES
CASES += maps.CASES
CASES += ocr_jobs.CASES
CASES += tournaments.CASES

__all__ = ("CASES", "ProducerCase", "ProducerEnv")
