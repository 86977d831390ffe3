"""The operator alert card of a job and the reply that notifies the operator of an episode.

The card mentions no one (its allowed mentions are empty on every send and edit): the reply of
each failure episode is what pings, and it allows only the configured recipient. Everything
rendered comes from the API's alert record, whose error text is bounded, redacted and unable to
mention anyone; the card shows no payload. Both messages name the job UUID and generation, which
is how an unrecorded send is found again in the channel (by the fingerprint of this rendering).
"""

from __future__ import annotations

from genji_sdk.alerts import AlertCard, AlertEffect

from genji_bot.alerts.custom_ids import DetailsControl, RetryControl
from genji_bot.effects import limits
from genji_bot.effects.port import NO_MENTIONS, Button, Embed, Field, Mentions, Outgoing

STATE_LABELS = {
    "held": "Held: needs intervention",
    "pending": "Queued",
    "retrying": "Queued for retry",
    "running": "Running",
    "succeeded": "Succeeded",
    "discarded": "Discarded",
    "needs_inspection": "Needs inspection",
}
COLORS = {"held": 0xE74C3C, "succeeded": 0x2ECC71, "discarded": 0x95A5A6}
QUEUED_COLOR = 0xF1C40F


def _effects(effects: list[AlertEffect]) -> str:
    if not effects:
        return "None"
    lines = [
        f"`{effect.effect_key}`"
        + (f" -> {effect.destination}" if effect.destination else "")
        + f" ({effect.state})"
        for effect in effects
    ]
    return limits.truncated("\n".join(lines), limits.FIELD_VALUE)


def card(alert: AlertCard) -> Outgoing:
    fields = [
        Field("Event", f"`{alert.event_name}`", inline=True),
        Field("Job", f"`{alert.job_id}`", inline=True),
        Field("Generation", str(alert.retry_generation), inline=True),
        Field("State", STATE_LABELS.get(alert.state, alert.state), inline=True),
        Field("Failed attempts", str(alert.attempts), inline=True),
    ]
    if alert.failed_at is not None:
        fields.append(Field("Failed at", f"<t:{int(alert.failed_at.timestamp())}:f>", inline=True))
    if alert.error:
        fields.append(Field("Error", alert.error))
    fields.append(Field("Completed effects", _effects(alert.completed_effects)))
    fields.append(Field("Pending effects", _effects(alert.pending_effects)))
    if alert.sentry_url:
        fields.append(Field("Sentry", alert.sentry_url))
    return Outgoing(
        embed=Embed(
            title="Job failure",
            fields=tuple(fields),
            color=COLORS.get(alert.state, QUEUED_COLOR),
        ),
        buttons=(
            Button(
                custom_id=RetryControl(alert.job_id, alert.retry_generation).custom_id,
                label="Retry job",
                style="danger",
                disabled=not alert.retry_enabled,
            ),
            Button(custom_id=DetailsControl(alert.job_id).custom_id, label="Details"),
        ),
        mentions=NO_MENTIONS,
    )


def reply(alert: AlertCard, generation: int, recipient: int) -> Outgoing:
    return Outgoing(
        content=(
            f"<@{recipient}> Job `{alert.job_id}` (`{alert.event_name}`) failed at generation "
            f"{generation} and needs intervention."
        ),
        mentions=Mentions(users=(recipient,)),
    )
