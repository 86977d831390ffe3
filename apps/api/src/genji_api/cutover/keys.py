"""The event key and entity key each event's producer uses, derived from an exported message.

A legacy message that does not carry what the producer's key is made of (a transition row the
payload does not name) has no key: it needs reconciliation instead of a guessed identity.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import asyncpg
import msgspec
from genji_sdk import payloads as p

from genji_api.completions.verification import verification_event_key
from genji_api.tournaments.verdicts import tournament_verification_event_key
from genji_api.xp.grants import xp_event_key


@dataclass(frozen=True)
class Keys:
    event_key: str
    entity_key: str | None


@dataclass(frozen=True)
class NoKey:
    reason: str


Derived = Keys | NoKey
Rule = Callable[[asyncpg.Connection, Any, str | None], Awaitable[Derived]]

_TRANSITION = (
    "the producer's key names a playtests.transitions row that the legacy message does not carry"
)


async def _autoverify(_: asyncpg.Connection, e: p.FailedAutoverifyEvent, __: str | None) -> Derived:
    return Keys(f"completion:autoverification-failed:{e.completion_id}", None)


async def _submission(
    conn: asyncpg.Connection, e: p.CompletionCreatedEvent, legacy: str | None
) -> Derived:
    user_id = await conn.fetchval(
        "SELECT user_id FROM core.completions WHERE id = $1", e.completion_id
    )
    if user_id is None:
        return NoKey(f"completion {e.completion_id} does not exist")
    return Keys(
        f"completion:submission:{user_id}:{e.completion_id}", f"completion:{e.completion_id}"
    )


async def _upvote(_: asyncpg.Connection, e: p.UpvoteUpdateEvent, __: str | None) -> Derived:
    return Keys(f"completion:upvote:{e.message_id}:{e.milestone}", None)


async def _verification(
    _: asyncpg.Connection, e: p.VerificationChangedEvent, __: str | None
) -> Derived:
    return Keys(verification_event_key(e.transition_id), f"completion:{e.completion_id}")


async def _verification_delete(
    conn: asyncpg.Connection, e: p.VerificationMessageDeleteEvent, _: str | None
) -> Derived:
    completion_id = await conn.fetchval(
        "SELECT id FROM core.completions WHERE verification_id = $1", e.verification_id
    )
    if completion_id is None:
        return NoKey(f"no completion has the review message {e.verification_id}")
    return Keys(f"completion:verification-delete:{completion_id}", f"completion:{completion_id}")


async def _edit_created(_: asyncpg.Connection, e: p.MapEditCreatedEvent, __: str | None) -> Derived:
    return Keys(f"map_edit:created:{e.edit_request_id}", f"map-edit:{e.edit_request_id}")


async def _edit_resolved(
    _: asyncpg.Connection, e: p.MapEditResolvedEvent, __: str | None
) -> Derived:
    return Keys(f"map_edit:resolved:{e.edit_request_id}", f"map-edit:{e.edit_request_id}")


async def _newsfeed(_: asyncpg.Connection, e: p.NewsfeedDispatchEvent, __: str | None) -> Derived:
    return Keys(f"newsfeed:create:{e.newsfeed_id}", None)


async def _notification(
    _: asyncpg.Connection, e: p.NotificationDeliveryEvent, __: str | None
) -> Derived:
    return Keys(f"notification:delivery:{e.event_id}", None)


async def _playtest_create(
    _: asyncpg.Connection, e: p.PlaytestCreatedEvent, legacy: str | None
) -> Derived:
    # Both producers' keys name the map, which the payload does not: the legacy key carries it.
    match = re.fullmatch(r"map:(submit:\d+|send-to-playtest:\d+:(\d+))", legacy or "")
    if match is None or (match.group(2) is not None and int(match.group(2)) != e.playtest_id):
        return NoKey("the legacy message id does not name the map this playtest was created for")
    return Keys(legacy or "", f"playtest:{e.playtest_id}")


async def _needs_transition(_: asyncpg.Connection, __: Any, ___: str | None) -> Derived:
    return NoKey(_TRANSITION)


async def _reset(conn: asyncpg.Connection, e: p.PlaytestResetEvent, _: str | None) -> Derived:
    playtest_id = await conn.fetchval(
        "SELECT playtest_id FROM playtests.transitions WHERE id = $1", e.transition_id
    )
    if playtest_id is None:
        return NoKey(f"playtest transition {e.transition_id} does not exist")
    return Keys(f"playtest:reset:{e.transition_id}", f"playtest:{playtest_id}")


async def _tournament_completion(
    _: asyncpg.Connection, e: p.TournamentCompletionCreatedEvent, __: str | None
) -> Derived:
    return Keys(
        f"tournament:completion:{e.completion_id}", f"tournament-completion:{e.completion_id}"
    )


async def _tournament_verdict(
    _: asyncpg.Connection, e: p.TournamentVerificationChangedEvent, __: str | None
) -> Derived:
    return Keys(
        tournament_verification_event_key(e.transition_id),
        f"tournament-completion:{e.tournament_completion_id}",
    )


async def _rollover(
    _: asyncpg.Connection, e: p.TournamentRolloverEvent, legacy: str | None
) -> Derived:
    # Start-only, edition end and reroll announcements share a payload shape; their keys differ.
    edition = f"tournament:rollover:{e.edition_id}"
    if legacy in (edition, f"{edition}:start") or re.fullmatch(
        r"tournament:active-reroll:\d+", legacy or ""
    ):
        return Keys(legacy or "", f"tournament-edition:{e.edition_id}")
    return NoKey("the legacy message id does not say which announcement of the edition this is")


async def _results(
    _: asyncpg.Connection, e: p.TournamentEditionResultsEvent, __: str | None
) -> Derived:
    return Keys(f"tournament:results:{e.edition_id}", f"tournament-edition:{e.edition_id}")


async def _xp(_: asyncpg.Connection, e: p.XpGrantEvent, __: str | None) -> Derived:
    return Keys(xp_event_key(e.grant_id), f"user:{e.user_id}")


RULES: dict[str, Rule] = {
    "api.completion.autoverification.failed": _autoverify,
    "api.completion.submission": _submission,
    "api.completion.upvote": _upvote,
    "api.completion.verification": _verification,
    "api.completion.verification.delete": _verification_delete,
    "api.map_edit.created": _edit_created,
    "api.map_edit.resolved": _edit_resolved,
    "api.newsfeed.create": _newsfeed,
    "api.notification.delivery": _notification,
    "api.playtest.create": _playtest_create,
    "api.playtest.vote.cast": _needs_transition,
    "api.playtest.vote.remove": _needs_transition,
    "api.playtest.approve": _needs_transition,
    "api.playtest.force_accept": _needs_transition,
    "api.playtest.force_deny": _needs_transition,
    "api.playtest.reset": _reset,
    "api.tournament.completion.created": _tournament_completion,
    "api.tournament.verification.changed": _tournament_verdict,
    "api.tournament.rollover": _rollover,
    "api.tournament.results": _results,
    "api.xp.grant": _xp,
}


async def derive(
    conn: asyncpg.Connection, event_name: str, payload: msgspec.Struct, legacy_key: str | None
) -> Derived:
    return await RULES[event_name](conn, payload, legacy_key)
