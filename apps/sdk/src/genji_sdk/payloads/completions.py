"""Payloads of the completion events consumed by the bot."""

from __future__ import annotations

from typing import Any

import msgspec

from genji_sdk.payloads.common import OverwatchCode

__all__ = (
    "CompletionCreatedEvent",
    "ExtractedResult",
    "FailedAutoverifyEvent",
    "UpvoteUpdateEvent",
    "VerificationChangedEvent",
    "VerificationMessageDeleteEvent",
)


class ExtractedResult(msgspec.Struct, frozen=True, kw_only=True):
    """What the OCR service read from a screenshot."""

    name: str | None
    time: float | None
    code: str | None
    sources: dict[str, Any] = {}
    texts: dict[str, Any] = {}


class FailedAutoverifyEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.completion.autoverification.failed`: OCR disagreed with the submission."""

    # The OCR decision this notice reports; one notice per decision.
    completion_id: int
    submitted_code: OverwatchCode
    submitted_time: float
    submitted_user_names: list[str]
    user_id: int
    extracted: ExtractedResult
    code_match: bool
    time_match: bool
    user_match: bool
    screenshot: str


class CompletionCreatedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.completion.submission`: a completion needs manual review."""

    completion_id: int


class UpvoteUpdateEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.completion.upvote`: a verified-completion post reached an upvote milestone."""

    user_id: int
    message_id: int
    # The count that crossed the milestone; the forward is deduplicated per milestone.
    milestone: int


class VerificationChangedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.completion.verification`: a completion was verified or rejected."""

    completion_id: int
    # Persisted per actual verdict, so verify -> reject -> verify yields three distinct jobs.
    transition_id: int
    verified: bool
    verified_by: int
    reason: str | None = None


class VerificationMessageDeleteEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.completion.verification.delete`: a superseded review message must go."""

    verification_id: int
