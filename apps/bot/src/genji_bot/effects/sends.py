"""Sends that survive replays: intent first, then the returned ids, through the API's bindings.

On a replay of the same (job, effect, destination):
- a recorded message is reused and the handler goes on;
- a send that never began is sent;
- a send that began without recording an id (the process died, or the reply was lost) is looked
  for in the destination's recent history by its fingerprint: exactly one of the bot's own
  messages with it, created since the intent, is adopted; anything else holds the job as
  uncertain, naming the effect, the destination and the last stage reached.
- a destination settled as failed raises `Forbidden` again; one settled as skipped returns None.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import msgspec
from genji_sdk.failures import DependencyUnavailable, EffectUncertain, RateLimited
from genji_sdk.sends import SendState

from genji_bot.api import JobApi
from genji_bot.effects.checkpoints import Checkpoints
from genji_bot.effects.port import (
    DiscordPort,
    Forbidden,
    NotFound,
    NotSent,
    Outgoing,
    Sent,
    Target,
    destination_of,
)

SENDS = "/internal/effects/sends"
# Discord's clock and ours may disagree a little about when the intent was recorded.
CLOCK_SKEW = timedelta(seconds=5)


class Mirror(msgspec.Struct, frozen=True):
    """A domain column the API writes with the binding (kinds in genji_api.effects.mirrors)."""

    kind: str
    entity_id: int


async def _post(api: JobApi, path: str, effect: str, body: dict[str, Any]) -> Any:
    return await api.client.request("POST", SENDS + path, json=body, headers=api.headers(effect))


async def _binding(api: JobApi, path: str, effect: str, body: dict[str, Any]) -> SendState:
    return msgspec.convert(await _post(api, path, effect, body), SendState)


def _sent(state: SendState) -> Sent:
    assert state.message_id is not None or state.thread_id is not None
    return Sent(
        channel_id=state.channel_id or 0,
        message_id=state.message_id or 0,
        thread_id=state.thread_id,
    )


async def _complete(
    api: JobApi, effect: str, destination: str, sent: Sent, mirror: Mirror | None
) -> None:
    await _binding(
        api,
        "/complete",
        effect,
        {
            "destination": destination,
            "channel_id": sent.channel_id or None,
            "message_id": sent.message_id or None,
            "thread_id": sent.thread_id,
            "mirror": msgspec.to_builtins(mirror) if mirror else None,
        },
    )


async def _hold_uncertain(
    api: JobApi, effect: str, destination: str, stage: str, detail: str = ""
) -> EffectUncertain:
    await _binding(
        api,
        "/settle",
        effect,
        {"destination": destination, "state": "uncertain", "reason": stage},
    )
    return EffectUncertain(effect, destination, stage, detail)


async def _reconcile(
    api: JobApi, port: DiscordPort, effect: str, target: Target, state: SendState
) -> Sent:
    """Adopt the one earlier message with this send's fingerprint, or hold the job."""
    destination = destination_of(target)
    stage = str(state.detail.get("reason") or state.detail.get("stage") or state.state)
    seen = await port.recent(target, _since(state))
    matches = [item for item in seen if item.fingerprint == state.fingerprint]
    if len(matches) != 1:
        found = "no" if not matches else f"{len(matches)}"
        raise await _hold_uncertain(
            api, effect, destination, stage, f"{found} matching message(s) in recent history"
        )
    return matches[0].sent


def _since(state: SendState) -> datetime:
    return state.created_at - CLOCK_SKEW


async def send_once(
    api: JobApi,
    port: DiscordPort,
    checkpoints: Checkpoints,
    effect: str,
    target: Target,
    message: Outgoing,
    *,
    mirror: Mirror | None = None,
) -> Sent | None:
    """Send `message` to `target` at most once for this job's `effect`.

    Returns the ids of the message (sent now or recorded earlier), or None when the destination
    was settled as skipped. Raises Forbidden when it was refused for good (now or earlier), and
    EffectUncertain when an earlier attempt may have sent it and no evidence settles it.
    """
    destination = destination_of(target)
    # Before the intent: a failure or a crash here means the send never began.
    await checkpoints.reached(api.context, effect, "before")
    state = await _binding(
        api, "", effect, {"destination": destination, "fingerprint": message.fingerprint()}
    )
    if state.state == "skipped":
        await checkpoints.reached(api.context, effect, "after")
        return None
    if state.state == "failed":
        raise Forbidden(f"{destination} refused effect {effect!r} earlier")
    if state.state == "completed":
        sent = _sent(state)
        if mirror is not None and "resolved_by" in state.detail:
            # An operator located this message: its domain column is written now.
            await _complete(api, effect, destination, sent, mirror)
    elif not state.fresh:
        sent = await _reconcile(api, port, effect, target, state)
        await _complete(api, effect, destination, sent, mirror)
    else:
        sent = await _send_fresh(api, port, effect, target, message, mirror)
    await checkpoints.reached(api.context, effect, "after")
    return sent


async def _send_fresh(
    api: JobApi,
    port: DiscordPort,
    effect: str,
    target: Target,
    message: Outgoing,
    mirror: Mirror | None,
) -> Sent:
    """Send under the intent this execution just recorded, then record the ids."""
    destination = destination_of(target)
    try:
        sent = await port.send(target, message)
    except Forbidden as error:
        await _binding(
            api,
            "/settle",
            effect,
            {"destination": destination, "state": "failed", "reason": str(error)[:500]},
        )
        raise
    except (NotSent, NotFound, RateLimited) as error:
        await _post(api, "/release", effect, {"destination": destination})
        if isinstance(error, NotSent):
            raise DependencyUnavailable("discord", str(error)) from error
        raise
    except Exception as error:
        raise await _hold_uncertain(
            api, effect, destination, "sent, reply lost", type(error).__name__
        ) from error
    await _complete(api, effect, destination, sent, mirror)
    return sent


async def skip_send(api: JobApi, effect: str, target: Target, reason: str) -> None:
    """Record that this destination is deliberately not sent to (never retried)."""
    await _binding(
        api,
        "/settle",
        effect,
        {"destination": destination_of(target), "state": "skipped", "reason": reason[:500]},
    )
