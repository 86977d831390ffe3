"""The completion feature's Discord messages: the review card, the verified-run card, the
mastery message and the staff notice of a failed automatic verification.

Component ids are versioned and carry only the completion id, so the buttons of old messages are
parsed again after a restart. No message mentions anyone unless it says so.
"""

from __future__ import annotations

import json

import msgspec
from genji_sdk.completions import CompletionAnnouncement
from genji_sdk.payloads import FailedAutoverifyEvent

from genji_bot.effects import limits
from genji_bot.effects.port import Button, Embed, Field, Outgoing


def verify_id(completion_id: int) -> str:
    return f"completion:verify:v1:{completion_id}"


def reject_id(completion_id: int) -> str:
    return f"completion:reject:v1:{completion_id}"


def upvote_id(completion_id: int) -> str:
    return f"completion:upvote:v1:{completion_id}"


def _fields(view: CompletionAnnouncement) -> tuple[Field, ...]:
    fields = [
        Field("Code", view.code, inline=True),
        Field("Map", view.map_name, inline=True),
        Field("Time", f"{view.time:g}", inline=True),
        Field("User", view.name, inline=True),
    ]
    if view.difficulty:
        fields.append(Field("Difficulty", view.difficulty, inline=True))
    if view.video:
        fields.append(Field("Video", view.video))
    return tuple(fields)


def verification_card(view: CompletionAnnouncement) -> Outgoing:
    return Outgoing(
        embed=Embed(title="New Submission", fields=_fields(view), image_url=view.screenshot),
        buttons=(
            Button(verify_id(view.id), "Accept", style="success"),
            Button(reject_id(view.id), "Reject", style="danger"),
        ),
    )


def completion_card(view: CompletionAnnouncement, upvotes: int) -> Outgoing:
    footer = f"Verified by {view.verified_by_name}" if view.verified_by_name else ""
    return Outgoing(
        embed=Embed(
            title="Completion" if view.completion else "Record",
            fields=_fields(view),
            image_url=view.screenshot,
            footer=footer,
        ),
        buttons=(Button(upvote_id(view.id), str(upvotes), style="secondary"),),
    )


def mastery_message(name: str, map_name: str, level: str) -> Outgoing:
    return Outgoing(content=f"{name} has earned the {level} mastery medal for {map_name}!")


def autoverification_notice(event: FailedAutoverifyEvent) -> Outgoing:
    def mark(ok: bool) -> str:
        return "✓" if ok else "✗"

    extracted = event.extracted
    text = (
        f"Auto-verification failed for user {event.user_id}\n"
        f"{mark(event.user_match)} Name: {extracted.name} (expected one of "
        f"{', '.join(event.submitted_user_names)})\n"
        f"{mark(event.code_match)} Code: {extracted.code} (expected {event.submitted_code})\n"
        f"{mark(event.time_match)} Time: {extracted.time} (expected {event.submitted_time})\n"
        f"Screenshot: {event.screenshot}\n"
        f"```json\n{json.dumps(msgspec.to_builtins(extracted), indent=2)[:1200]}\n```"
    )
    if len(text) > limits.CONTENT:
        # Cut inside the code block, and close it.
        text = text[: limits.CONTENT - 4] + "\n```"
    return Outgoing(content=text)
