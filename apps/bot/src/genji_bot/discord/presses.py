"""What every button of the bot has in common: who pressed, deferring, answering, and the API's
refusals as sentences.

A feature's dynamic item (`genji_bot.features.*_buttons`) parses its custom id, then hands the
interaction to `deferred_press` (or, for a button that asks something first, opens a modal whose
submit does). The press itself is a plain coroutine returning the text to answer with: it checks
the presser (`Presser`, read from the interaction, never from the custom id), calls the API and
turns each answer or refusal into a sentence. `deferred_press` defers at once (ephemeral,
thinking), always follows up, even after an unexpected exception (logged), and never mentions
anyone.

The API decides whether a press changes anything (a repeated verdict is the same job, a second
resolution is 409); the press explains its answer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from uuid import UUID

import discord
import msgspec
from genji_sdk.failures import ConfigurationFailure, DependencyUnavailable, RateLimited
from genji_sdk.jobs import JobStatus, JobStatusResponse

from genji_bot.api import ApiAnswerLost, ApiClient, ApiConflict, ApiError, ApiNotFound
from genji_bot.settings import BotSettings

log = logging.getLogger("genji.bot.presses")

NOT_A_MODERATOR = "Only moderators may use this button."
FAILED = "Something went wrong while handling this button; it was logged. Try again in a moment."
UNREADABLE = "The API's answer could not be read; nothing is confirmed."
JOB_WAIT_SECONDS = 20.0
"""How long a verdict press waits for its job before saying it is still running."""

REFUSALS: tuple[type[Exception], ...] = (
    ApiError,
    ConfigurationFailure,
    DependencyUnavailable,
    RateLimited,
    msgspec.ValidationError,
)
"""What the API's client raises for an answer that is not a success."""


@dataclasses.dataclass(frozen=True)
class Presser:
    """Who pressed, from the interaction itself: the user id sent to the API is always this."""

    user_id: int
    role_ids: frozenset[int]
    interaction_id: int
    channel_id: int | None
    message_id: int | None
    """The message the button is on (None for a modal submitted without one)."""


def presser(interaction: discord.Interaction[Any]) -> Presser:
    # A guild interaction carries the member with their roles; a DM one carries a plain user.
    roles = getattr(interaction.user, "roles", ())
    return Presser(
        user_id=interaction.user.id,
        role_ids=frozenset(role.id for role in roles),
        interaction_id=interaction.id,
        channel_id=interaction.channel_id,
        message_id=interaction.message.id if interaction.message is not None else None,
    )


def is_moderator(
    moderator_ids: Iterable[int], moderator_role_ids: Iterable[int], who: Presser
) -> bool:
    return who.user_id in frozenset(moderator_ids) or not who.role_ids.isdisjoint(
        moderator_role_ids
    )


def may_moderate(settings: BotSettings, who: Presser) -> bool:
    return is_moderator(settings.moderator_ids, settings.moderator_role_ids, who)


def services(interaction: discord.Interaction[Any]) -> tuple[BotSettings, ApiClient]:
    settings = getattr(interaction.client, "settings", None)
    api = getattr(interaction.client, "api", None)
    if not isinstance(settings, BotSettings) or not isinstance(api, ApiClient):
        raise RuntimeError("the bot's buttons run only in the Genji bot client")
    return settings, api


def refusal(error: Exception, *, gone: str, conflict: str | None = None) -> str:
    """The sentence for an API answer that is not a success. `gone` answers 404 (the record is
    unknown or no longer there); `conflict`, when given, answers 409 instead of the API's own
    message."""
    if isinstance(error, ApiNotFound):
        return gone
    if isinstance(error, ApiConflict):
        return conflict or f"{error.message}"
    if isinstance(error, RateLimited):
        return (
            f"The API is busy; nothing was changed. Try again in {math.ceil(error.retry_after)} s."
        )
    if isinstance(error, ApiAnswerLost):
        return (
            "The API did not answer, so this may have been done already. Pressing again is "
            "safe: it does it once and says where it stands."
        )
    if isinstance(error, DependencyUnavailable):
        wait = (
            f"in {math.ceil(error.retry_after)} s" if error.retry_after is not None else "shortly"
        )
        return f"The API is unavailable right now; nothing was changed. Try again {wait}."
    if isinstance(error, ConfigurationFailure):
        return "The API refused the bot's request (its key lacks the permission); tell an operator."
    if isinstance(error, msgspec.ValidationError):
        log.error("unreadable API answer: %s", error)
        return UNREADABLE
    assert isinstance(error, ApiError)
    if error.status == 400:
        return f"The API refused this: {error.message}"
    return f"The API answered {error.status} ({error.message}); nothing is confirmed."


async def job_status(api: ApiClient, job_id: UUID) -> JobStatusResponse:
    return msgspec.convert(await api.get(f"/internal/jobs/{job_id}"), JobStatusResponse)


async def wait_for_job(
    api: ApiClient, job: JobStatusResponse, *, within: float = JOB_WAIT_SECONDS, every: float = 0.25
) -> JobStatus:
    """The job's status once it finished, or its last one after `within` seconds."""
    deadline = time.monotonic() + within
    status = job.status
    while status in ("queued", "processing") and time.monotonic() < deadline:
        await asyncio.sleep(every)
        try:
            status = (await job_status(api, job.id)).status
        except REFUSALS as error:
            log.warning("job %s: status not read: %r", job.id, error)
    return status


async def answer(interaction: discord.Interaction[Any], text: str) -> None:
    await interaction.followup.send(
        text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


async def deferred_press(
    interaction: discord.Interaction[Any], press: Callable[[], Awaitable[str]], what: str
) -> None:
    """Defer at once, run the press, and always answer it ephemerally.

    An interaction Discord does not let us acknowledge (delivered a second time: 40060; or
    expired: 10062) is not pressed at all: its first delivery answers, or no one waits."""
    try:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as error:
        log.warning(
            "%s: interaction %d not acknowledged, not pressed: %r", what, interaction.id, error
        )
        return
    try:
        text = await press()
    except Exception:
        log.exception("%s: the press by %d failed", what, interaction.user.id)
        text = FAILED
    try:
        await answer(interaction, text)
    except discord.HTTPException as error:
        log.error("%s: the answer to %d was not delivered: %r", what, interaction.user.id, error)


async def refuse_now(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer a press at once, without deferring (before a modal would have been shown)."""
    await interaction.response.send_message(
        text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


MODAL_FIELD = "value"
"""The custom id of the one text field of every modal the bot shows."""
STALE_MODAL = "This form is no longer in use; press the button again."

ModalSubmit = Callable[[re.Match[str], str, discord.Interaction[Any]], Awaitable[str]]
_MODAL_SUBMITS: list[tuple[re.Pattern[str], ModalSubmit]] = []


# Every modal's custom id ends with the id of the press that opened it, which tells two
# moderators' modals on one card apart.
_PRESS_SUFFIX = r":[0-9]{1,20}"


def ask_modal(
    pressed: discord.Interaction[Any],
    *,
    title: str,
    custom_id: str,
    label: str,
    placeholder: str,
    required: bool,
    max_length: int,
) -> discord.ui.Modal:
    """A modal of one text field, opened by the press `pressed`, that discord.py does not keep:
    its submit is answered by the `modal_submit` registered for `custom_id`, which names
    everything the submit needs, so a modal submitted after any delay, or after the bot
    restarted, is still answered."""
    modal = discord.ui.Modal(title=title, custom_id=f"{custom_id}:{pressed.id}", timeout=None)
    modal.add_item(
        discord.ui.TextInput(
            label=label,
            custom_id=MODAL_FIELD,
            style=discord.TextStyle.paragraph,
            placeholder=placeholder,
            required=required,
            max_length=max_length,
        )
    )
    modal.stop()  # sent only: discord.py must not store it and route its submit itself
    return modal


def modal_submit(pattern: str) -> Callable[[ModalSubmit], ModalSubmit]:
    """Register the submit of the modals whose `ask_modal` custom id matches `pattern` whole:
    it gets the match, the field's value (stripped) and the submitting interaction, and returns
    the text to answer with (answered as a press is, by `deferred_press`)."""
    compiled = re.compile(pattern + _PRESS_SUFFIX)

    def register(submit: ModalSubmit) -> ModalSubmit:
        _MODAL_SUBMITS.append((compiled, submit))
        return submit

    return register


def _field_value(data: object) -> str | None:
    """The value of the MODAL_FIELD field among a modal submit's components."""
    if isinstance(data, dict):
        if data.get("custom_id") == MODAL_FIELD and "value" in data:
            return str(data["value"] or "")
        data = list(data.values())
    if isinstance(data, list):
        for item in data:
            found = _field_value(item)
            if found is not None:
                return found
    return None


async def answer_modal_submit(interaction: discord.Interaction[Any]) -> None:
    """Answer a modal submit through its registered `modal_submit`; one that matches none, or
    that lacks its field, is told to press the button again, never left unanswered."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    found = next(
        (
            (match, submit)
            for pattern, submit in _MODAL_SUBMITS
            if (match := pattern.fullmatch(custom_id)) is not None
        ),
        None,
    )
    value = _field_value(data.get("components", []))
    if found is None or value is None:
        # No handler, or no field: an empty value could mean something (an empty vote
        # removes the vote), so a submit without one is refused, never guessed.
        log.warning("modal %r submitted by %d was not understood", custom_id, interaction.user.id)
        try:
            await refuse_now(interaction, STALE_MODAL)
        except discord.HTTPException as error:
            log.warning("modal %r: the answer was not delivered: %r", custom_id, error)
        return
    match, submit = found
    text = value.strip()

    async def press() -> str:
        return await submit(match, text, interaction)

    await deferred_press(interaction, press, custom_id)


REASON_MAX = 500
"""The longest reason a moderator may give (the API's own limit)."""


async def ask_moderator_reason(
    interaction: discord.Interaction[Any], *, title: str, custom_id: str, placeholder: str
) -> None:
    """A moderator's press that needs a reason first: an outsider is refused at once, anyone
    else gets a modal asking for it (`ask_modal`), whose submit is the `modal_submit`
    registered for `custom_id`, which checks the submitter again."""
    settings, _ = services(interaction)
    if not may_moderate(settings, presser(interaction)):
        await refuse_now(interaction, NOT_A_MODERATOR)
        return
    await interaction.response.send_modal(
        ask_modal(
            interaction,
            title=title,
            custom_id=custom_id,
            label="Reason",
            placeholder=placeholder,
            required=True,
            max_length=REASON_MAX,
        )
    )
