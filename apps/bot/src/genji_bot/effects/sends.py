"""Sends that survive replays: intent first, then the returned ids, through the API's bindings.

Every attempt of one bound send carries the same Discord nonce (genji_bot.effects.nonces), so
while the intent is younger than the port's `nonce_window` repeating the send cannot post it
twice: Discord answers with the message the nonce already created.

On a replay of the same (job, effect, destination):
- a recorded message is reused and the handler goes on;
- a send that never began is sent;
- a send that began without recording an id (the process died, or the reply was lost) is
  repeated with its nonce while the window allows; after it (and for new forum threads, which
  take no nonce) it is looked for in the destination's recent history by its fingerprint:
  exactly one of the bot's own messages with it, created since the intent, is adopted; anything
  else holds the job as uncertain, naming the effect, the destination and the last stage.
- a destination settled as failed raises `Forbidden` again; one settled as skipped returns None.

A lost reply is repeated at once with the nonce; when Discord stays unreachable the intent is
left as it is and the job waits for Discord (no failure is charged), to be settled the same way
by its next execution. A definite refusal is never uncertain: nothing was sent, the intent is
released, and the job is held with Discord's reason (`EffectRefused`) for an operator to fix and
retry; only a closed DM (`Forbidden`) settles its destination as failed for good.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from genji_sdk.failures import (
    ConfigurationFailure,
    DependencyUnavailable,
    EffectRefused,
    EffectUncertain,
    RateLimited,
)
from genji_sdk.sends import Mirror, SendState

from genji_bot.api import JobApi
from genji_bot.effects.checkpoints import Checkpoints
from genji_bot.effects.nonces import send_nonce
from genji_bot.effects.port import (
    DiscordPort,
    Forbidden,
    NewForumThread,
    NotFound,
    NotSent,
    Outgoing,
    Refused,
    Sent,
    Target,
    destination_of,
)

SENDS = "/internal/effects/sends"
# Discord's clock and ours may disagree a little about when the intent was recorded.
CLOCK_SKEW = timedelta(seconds=5)
# How often a send whose reply was lost is repeated at once with its nonce.
LOST_REPLY_REPEATS = 2


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
    api: JobApi, port: DiscordPort, effect: str, target: Target, state: SendState, stage: str
) -> Sent:
    """Adopt the one earlier message with this send's fingerprint, or hold the job."""
    destination = destination_of(target)
    seen = await port.recent(target, state.created_at - CLOCK_SKEW)
    matches = [item for item in seen if item.fingerprint == state.fingerprint]
    if len(matches) != 1:
        found = "no" if not matches else f"{len(matches)}"
        raise await _hold_uncertain(
            api, effect, destination, stage, f"{found} matching message(s) in recent history"
        )
    return matches[0].sent


def _nonce(api: JobApi, effect: str, target: Target, state: SendState) -> str:
    return send_nonce(api.context.job_id, effect, destination_of(target), state.created_at)


def _deduplicated(port: DiscordPort, target: Target, state: SendState) -> bool:
    """Whether Discord still answers a repeat of this intent's send with its first message."""
    if isinstance(target, NewForumThread):
        return False
    return datetime.now(UTC) - state.created_at + CLOCK_SKEW < port.nonce_window


async def _settle(
    api: JobApi,
    port: DiscordPort,
    effect: str,
    target: Target,
    message: Outgoing,
    state: SendState,
    stage: str,
    repeats: int,
) -> Sent:
    """Settle an intent whose send may have happened: repeat it with its nonce while Discord
    deduplicates it, then look for it in history (holding the job when that does not settle it).
    While Discord does not answer, the intent is left for the next execution."""
    for _ in range(repeats):
        if not _deduplicated(port, target, state):
            break
        try:
            return await port.send(target, message, nonce=_nonce(api, effect, target, state))
        except NotSent as error:
            raise DependencyUnavailable("discord", str(error)) from error
        except (RateLimited, ConfigurationFailure, DependencyUnavailable):
            raise
        except (Forbidden, Refused, NotFound):
            break  # says nothing about the earlier attempt: look for it instead
        except Exception:  # its outcome is unknown again
            continue
    else:
        if repeats:
            raise DependencyUnavailable("discord", f"outcome of {effect!r} unknown; repeated later")
    return await _reconcile(api, port, effect, target, state, stage)


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
    was settled as skipped. Raises Forbidden when it was refused for good (now or earlier),
    EffectRefused when Discord refused it now, and EffectUncertain when an earlier attempt may
    have sent it and no evidence settles it.
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
        stage = str(state.detail.get("reason") or state.detail.get("stage") or state.state)
        sent = await _settle(api, port, effect, target, message, state, stage, repeats=1)
        await _complete(api, effect, destination, sent, mirror)
    else:
        sent = await _send_fresh(api, port, effect, target, message, state, mirror)
    await checkpoints.reached(api.context, effect, "after")
    return sent


async def _send_fresh(
    api: JobApi,
    port: DiscordPort,
    effect: str,
    target: Target,
    message: Outgoing,
    state: SendState,
    mirror: Mirror | None,
) -> Sent:
    """Send under the intent this execution just recorded, then record the ids."""
    destination = destination_of(target)
    nonce = _nonce(api, effect, target, state) if _deduplicated(port, target, state) else None
    try:
        sent = await port.send(target, message, nonce=nonce)
    except Forbidden as error:
        await _settle_failed(api, effect, destination, str(error))
        raise
    except (Refused, NotSent, NotFound, RateLimited, ConfigurationFailure) as error:
        await _post(api, "/release", effect, {"destination": destination})
        if isinstance(error, Refused):
            raise EffectRefused(effect, destination, str(error)) from error
        if isinstance(error, NotSent):
            raise DependencyUnavailable("discord", str(error)) from error
        raise
    except Exception as error:
        # What was lost (a dropped connection, Discord's 5xx and its message) goes to the hold.
        stage = f"sent, reply lost: {type(error).__name__}: {error}"[:300].rstrip(": ")
        sent = await _settle(api, port, effect, target, message, state, stage, LOST_REPLY_REPEATS)
    await _complete(api, effect, destination, sent, mirror)
    return sent


async def _settle_failed(api: JobApi, effect: str, destination: str, reason: str) -> None:
    await _binding(
        api,
        "/settle",
        effect,
        {"destination": destination, "state": "failed", "reason": reason[:500]},
    )


async def skip_send(api: JobApi, effect: str, target: Target, reason: str) -> None:
    """Record that this destination is deliberately not sent to (never retried)."""
    await _binding(
        api,
        "/settle",
        effect,
        {"destination": destination_of(target), "state": "skipped", "reason": reason[:500]},
    )
