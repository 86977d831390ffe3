"""What the alert controls tell the operator, as plain text: one sentence per recovery outcome,
and a job's current diagnostic for Details. Every string from the API is sanitized and bounded
here; no payloads or headers ever reach these functions."""

from __future__ import annotations

import re
from datetime import datetime

from genji_sdk.inspection import ActionView, BindingView, JobDetails
from genji_sdk.recovery import RecoveryOutcome, RecoveryResult
from genji_worker.errors import redact

from genji_bot.effects import limits

# Discord refuses content past limits.CONTENT characters; stay well below it.
MAX_TEXT = limits.CONTENT - 100
MAX_LISTED = 5
RECENT_ACTIONS = 3

_NOISE = re.compile(r"[\s\x00-\x1f\x7f]+")

# A finished job's last error is history, not its state: it is shown labelled as from before.
_FINISHED = {"succeeded": "it succeeded", "discarded": "it was discarded"}


def clean(text: str | None, limit: int = 120) -> str:
    """One line of untrusted text: secrets redacted, no code fences or mentions, bounded."""
    if not text:
        return "-"
    line = _NOISE.sub(" ", redact(text)).strip()
    line = line.replace("`", "'").replace("@", "@\u200b")
    return line if len(line) <= limit else line[: limit - 1] + "…"


_REFUSED: dict[RecoveryOutcome, str] = {
    "stale_generation": "this card is for an older generation of the job",
    "queued": "the job is already queued",
    "running": "the job is running right now",
    "succeeded": "the job already succeeded, so it can never be retried",
    "discarded": "the job was discarded",
    "reconciliation_required": (
        "a Discord send of this job is uncertain: resolve the uncertain send first "
        "(Details says which), then retry"
    ),
    "not_uncertain": "no send of this job is uncertain",
    "needs_inspection": (
        "the job's queue state is missing or inconsistent and needs inspection; "
        "it was not reconstructed from the button"
    ),
}


def _outcome(outcome: RecoveryOutcome, result: RecoveryResult) -> str:
    if outcome == "accepted":
        return (
            f"the retry was accepted: job `{result.job_id}` is queued again as generation "
            f"{result.retry_generation}"
        )
    if outcome == "duplicate":
        return "this press was already handled"
    reason = _REFUSED[outcome]
    if outcome == "stale_generation":
        reason += f" (it is at generation {result.retry_generation} now, {result.state})"
    return f"nothing was changed: {reason}"


def retry_sentence(result: RecoveryResult) -> str:
    """The ephemeral answer to a Retry job press."""
    if result.outcome == "duplicate":
        recorded = result.recorded_outcome
        if recorded is None or recorded == "duplicate":
            return "This press was already handled; see Details for the job's current state."
        return f"This press was already handled, and {_outcome(recorded, result)}."
    text = _outcome(result.outcome, result)
    return text[0].upper() + text[1:] + "."


def retry_unanswered() -> str:
    """The answer when the API never confirmed the retry: it may have been recorded."""
    return (
        "The API did not answer in time, so the retry may or may not have been recorded. "
        "Press Details to see the job's current state before retrying again."
    )


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def _keys(keys: list[str]) -> str:
    shown = ", ".join(f"`{clean(key, 60)}`" for key in keys[:MAX_LISTED])
    more = len(keys) - MAX_LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _uncertain(binding: BindingView) -> str:
    where = clean(binding.destination, 60)
    return (
        f"- `{clean(binding.effect_key, 60)}` to `{where}`: the send may have happened. "
        "Look for the message there, then record what you found with `genji-jobs resolve "
        "<job> --effect <key> --destination <destination>`: `--located` with its ids, or "
        "`--resend` to send it again."
    )


def _action(action: ActionView) -> str:
    expected = action.expected_generation
    generation = "" if expected is None else f" at generation {expected}"
    reason = f" ({clean(action.reason, 80)})" if action.reason else ""
    return (
        f"- {_when(action.created_at)}: {clean(action.action, 30)}{generation} by "
        f"<@{action.actor_id}>: {clean(action.outcome, 30)}{reason}"
    )


def _retry_line(details: JobDetails, uncertain: list[BindingView]) -> str:
    if details.retry_enabled:
        return "Retry job: available."
    if uncertain:
        return "Retry job: disabled until every uncertain send is resolved."
    if details.state in _FINISHED:
        return f"Retry job: not available: {_FINISHED[details.state]}."
    return f"Retry job: not available while the job is {details.state}."


def _error_lines(details: JobDetails) -> list[str]:
    """When it was held and its last error; for a finished job, no held time and the error
    labelled as from before it finished (what it failed with before, not what is wrong now)."""
    error = f"`{clean(details.error_code, 60)}` {clean(details.error_msg, 300)}"
    if details.state in _FINISHED:
        if not (details.error_code or details.error_msg):
            return []
        return [f"Last error, from before {_FINISHED[details.state]}: {error}"]
    lines = [f"Held since: {_when(details.held_at)}"]
    if details.error_code or details.error_msg:
        lines.append(f"Last error: {error}")
    return lines


def details_lines(details: JobDetails) -> list[str]:
    """The ephemeral diagnostic of one job, read fresh from the API."""
    lines = [
        f"**{clean(details.event_name, 80)}** `{details.id}`",
        f"State: {details.state} (status {details.status}), generation {details.retry_generation}",
        f"Handler failures: {details.handler_failures} (retried up to "
        f"{details.failure_budget} times, then held); queue attempts: {details.attempts}",
    ]
    lines.extend(_error_lines(details))
    pending = [r.effect_key for r in details.receipts if not r.completed]
    done = len(details.receipts) - len(pending)
    receipts = f"API effects: {done} of {len(details.receipts)} completed"
    lines.append(receipts + (f"; pending: {_keys(pending)}" if pending else ""))
    states: dict[str, int] = {}
    for binding in details.bindings:
        states[binding.state] = states.get(binding.state, 0) + 1
    sends = ", ".join(f"{count} {state}" for state, count in sorted(states.items()))
    lines.append(f"Discord sends: {sends or 'none'}")
    uncertain = [b for b in details.bindings if b.state == "uncertain"]
    if uncertain:
        lines.append("Needs resolution before a retry:")
        lines.extend(_uncertain(binding) for binding in uncertain[:MAX_LISTED])
        if len(uncertain) > MAX_LISTED:
            lines.append(f"- and {len(uncertain) - MAX_LISTED} more uncertain sends")
    lines.append(_retry_line(details, uncertain))
    recent = sorted(details.actions, key=lambda a: a.id)[-RECENT_ACTIONS:]
    if recent:
        lines.append("Last actions:")
        lines.extend(_action(action) for action in recent)
    return lines


def details_text(details: JobDetails) -> str:
    """`details_lines` joined, cut at whole lines to fit one Discord message."""
    text = ""
    for line in details_lines(details):
        if len(text) + len(line) + 1 > MAX_TEXT:
            return text + "…"
        text += line + "\n"
    return text.rstrip("\n")
