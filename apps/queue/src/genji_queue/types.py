"""Outcomes the transition functions report."""

from __future__ import annotations

from typing import Literal

BeginDecision = Literal["run", "deferred", "held", "lost"]
"""queue_begin: run the handler; rescheduled to wait; held before running; claim is stale."""

FailOutcome = Literal["retry", "held", "lost"]
"""queue_fail: scheduled for another attempt; failure budget exhausted; claim is stale."""

ErrorRecord = dict[str, str]
"""{"exception_type": ..., "exception_message": ...}; the database bounds its size."""
