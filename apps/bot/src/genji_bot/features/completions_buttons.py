"""The completion cards' buttons: Accept and Reject on the review card, the upvote count on a
verified run's card.

Accept and Reject act only on a run that is still pending: the press reads the run first and
answers a run already verified, rejected (superseded runs are rejected by the bot) or unknown
without another verdict. A repeated Accept is the same verdict and the same job (the API returns
the verdict's job again); Accept waits up to `JOB_WAIT_SECONDS` for the verification job and says
how it ended. Reject asks for the reason in a modal first; its submit checks everything again.
The upvote is always the presser's own, on the message the button is on.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import msgspec
from genji_sdk.completions import CompletionSubmission, UpvoteResponse
from genji_sdk.jobs import JobStatus, JobStatusResponse

from genji_bot.api import ApiClient, ApiConflict, ApiNotFound
from genji_bot.discord.components import dynamic_item
from genji_bot.discord.presses import (
    JOB_WAIT_SECONDS,
    NOT_A_MODERATOR,
    REFUSALS,
    Presser,
    ask_moderator_reason,
    deferred_press,
    may_moderate,
    modal_submit,
    presser,
    refusal,
    services,
    wait_for_job,
)
from genji_bot.features.completions_cards import reject_id, upvote_id, verify_id
from genji_bot.settings import BotSettings

VERIFY_PATTERN = r"completion:verify:v1:(?P<id>[0-9]{1,19})"
REJECT_PATTERN = r"completion:reject:v1:(?P<id>[0-9]{1,19})"
UPVOTE_PATTERN = r"completion:upvote:v1:(?P<id>[0-9]{1,19})"

UNKNOWN_RUN = "This run no longer exists; the card is out of date."


def decided(run: CompletionSubmission, bot_user_id: int) -> str:
    """The answer for a review card whose run already has its verdict."""
    if run.state == "verified":
        return f"This run was already verified by <@{run.verified_by}>; nothing was changed."
    if run.verified_by == bot_user_id:
        return "This run was already rejected automatically (a newer run replaced it)."
    reason = f": {run.reason}" if run.reason else ""
    return f"This run was already rejected by <@{run.verified_by}>{reason}."


def verdict_outcome(verified: bool, status: JobStatus) -> str:
    done = "Verified." if verified else "Rejected."
    if status == "succeeded":
        return done
    if status in ("failed", "timeout"):
        return (
            f"{done[:-1]}, but announcing it failed; the operator was alerted and it will be "
            "retried from the job alert."
        )
    return f"{done[:-1]}; the announcement is still running and will finish on its own."


async def _decided_now(api: ApiClient, settings: BotSettings, completion_id: int) -> str:
    try:
        run = msgspec.convert(
            await api.get(f"/completions/{completion_id}/submission"), CompletionSubmission
        )
    except REFUSALS as error:
        return refusal(error, gone=UNKNOWN_RUN)
    return decided(run, settings.bot_user_id)


async def press_verdict(
    api: ApiClient,
    settings: BotSettings,
    completion_id: int,
    who: Presser,
    *,
    verified: bool,
    reason: str | None = None,
    wait: float = JOB_WAIT_SECONDS,
) -> str:
    """Accept (verified) or Reject a pending run as the presser, then wait for its job."""
    if not may_moderate(settings, who):
        return NOT_A_MODERATOR
    try:
        run = msgspec.convert(
            await api.get(f"/completions/{completion_id}/submission"), CompletionSubmission
        )
    except REFUSALS as error:
        return refusal(error, gone=UNKNOWN_RUN)
    if run.state != "pending":
        return decided(run, settings.bot_user_id)
    try:
        body = await api.request(
            "PUT",
            f"/completions/{completion_id}/verification",
            json={
                "verified": verified,
                "verified_by": who.user_id,
                "reason": reason,
                "if_pending": True,
            },
        )
        job = msgspec.convert(body, JobStatusResponse)
    except ApiConflict:
        # Another verdict was recorded between the read and this one: the API kept the first.
        return await _decided_now(api, settings, completion_id)
    except ApiNotFound as error:
        # The run was just read: what is missing is the presser (not a user the API knows).
        return f"The API refused this: {error.message}"
    except REFUSALS as error:
        return refusal(error, gone=UNKNOWN_RUN)
    return verdict_outcome(verified, await wait_for_job(api, job, within=wait))


async def press_upvote(api: ApiClient, who: Presser) -> str:
    """The presser's own upvote of the verified-run post the button is on."""
    if who.message_id is None:
        return "This button is not on a post; nothing was counted."
    try:
        body = await api.request(
            "POST",
            "/completions/upvoting",
            json={"user_id": who.user_id, "message_id": who.message_id},
        )
        upvoted = msgspec.convert(body, UpvoteResponse)
    except REFUSALS as error:
        return refusal(
            error,
            gone="This post is not a verified run any more; nothing was counted.",
            conflict="You have already upvoted this run.",
        )
    plural = "" if upvoted.upvotes == 1 else "s"
    return f"Upvoted! This run now has {upvoted.upvotes} upvote{plural}."


def _button(custom_id: str, label: str, style: discord.ButtonStyle) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id)


@dynamic_item
class AcceptCompletion(discord.ui.DynamicItem[discord.ui.Button[Any]], template=VERIFY_PATTERN):
    def __init__(self, completion_id: int) -> None:
        super().__init__(_button(verify_id(completion_id), "Accept", discord.ButtonStyle.success))
        self.completion_id = completion_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptCompletion:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        settings, api = services(interaction)
        await deferred_press(
            interaction,
            lambda: press_verdict(
                api, settings, self.completion_id, presser(interaction), verified=True
            ),
            self.custom_id,
        )


@dynamic_item
class RejectCompletion(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REJECT_PATTERN):
    def __init__(self, completion_id: int) -> None:
        super().__init__(_button(reject_id(completion_id), "Reject", discord.ButtonStyle.danger))
        self.completion_id = completion_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RejectCompletion:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await ask_moderator_reason(
            interaction,
            title="Reject this run",
            custom_id=f"completion:reject-reason:v1:{self.completion_id}",
            placeholder="Why is this run rejected? The player is told.",
        )


@modal_submit(r"completion:reject-reason:v1:(?P<id>[0-9]{1,19})")
async def reject_submitted(
    match: re.Match[str], reason: str, submit: discord.Interaction[Any]
) -> str:
    settings, api = services(submit)
    return await press_verdict(
        api, settings, int(match["id"]), presser(submit), verified=False, reason=reason
    )


@dynamic_item
class UpvoteCompletion(discord.ui.DynamicItem[discord.ui.Button[Any]], template=UPVOTE_PATTERN):
    def __init__(self, completion_id: int) -> None:
        super().__init__(_button(upvote_id(completion_id), "Upvote", discord.ButtonStyle.secondary))
        self.completion_id = completion_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UpvoteCompletion:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        _, api = services(interaction)
        await deferred_press(
            interaction, lambda: press_upvote(api, presser(interaction)), self.custom_id
        )
