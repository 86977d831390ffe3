"""The soak's submissions: each seeds what it needs and names one request to a real route, the
jobs that request commits with, and the domain effects it intends (checked for duplicates).

Together the scenarios reach every entrypoint: most directly, the rest through the API worker's
continuations (OCR decisions, the linked-map newsfeed) and the bot handlers' effects.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from genji_devstack.soak import seeds

VERIFIER = 10**18 - 1


@dataclass(frozen=True)
class Intent:
    """A domain effect the submission must cause exactly once: `table` rows matching `key`."""

    table: str
    key: dict[str, Any]


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: dict[str, Any] | None = None
    intents: tuple[Intent, ...] = ()


@dataclass(frozen=True)
class Scenario:
    name: str
    events: frozenset[str]
    """The jobs the request commits with (each at least once)."""
    ok: int
    prepare: Callable[[asyncpg.Connection], Awaitable[Request]] = field(repr=False)


def _run(code: str, user_id: int, screenshot: str, video: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "user_id": user_id, "time": 61.25}
    body["screenshot"] = screenshot
    if video:
        body["video"] = video
    return body


async def _xp(conn: asyncpg.Connection) -> Request:
    user = await seeds.user(conn)
    return Request(
        "POST",
        f"/lootbox/users/{user}/xp",
        {"amount": 10, "type": "Other"},
        (Intent("lootbox.xp_grants", {"user_id": user, "type": "Other"}),),
    )


async def _notification(conn: asyncpg.Connection) -> Request:
    user = await seeds.user(conn)
    body = {
        "user_id": user,
        "event_type": "verification_approved",
        "title": "Verified",
        "body": "Your run was verified.",
    }
    intent = Intent(
        "notifications.events", {"user_id": user, "event_type": "verification_approved"}
    )
    return Request("POST", "/notifications/events", body, (intent,))


async def _newsfeed(conn: asyncpg.Connection) -> Request:
    title = f"Soak news {seeds.next_id()}"
    body = {"type": "announcement", "title": title, "content": "News"}
    return Request(
        "POST", "/newsfeed", body, (Intent("public.newsfeed", {"payload ->> 'title'": title}),)
    )


async def _guide(conn: asyncpg.Connection) -> Request:
    _, code = await seeds.game_map(conn)
    user = await seeds.user(conn)
    body = {"url": f"https://youtu.be/{code.lower()}", "user_id": user}
    return Request(
        "POST",
        f"/maps/{code}/guides",
        body,
        (Intent("lootbox.xp_grants", {"user_id": user}),),
    )


def _ocr_run(answer: str) -> Callable[[asyncpg.Connection], Awaitable[Request]]:
    async def prepare(conn: asyncpg.Connection) -> Request:
        _, code = await seeds.game_map(conn)
        user = await seeds.user(conn, overwatch=True)
        return Request("POST", "/completions/", _run(code, user, seeds.screenshot(answer)))

    return prepare


async def _video_run(conn: asyncpg.Connection) -> Request:
    _, code = await seeds.game_map(conn)
    user = await seeds.user(conn)
    return Request("POST", "/completions/", _run(code, user, seeds.screenshot("x"), seeds.VIDEO))


async def _superseding_run(conn: asyncpg.Connection) -> Request:
    map_id, code = await seeds.game_map(conn)
    user = await seeds.user(conn)
    await seeds.completion(
        conn, map_id, user, verified=False, time=80.0, verification_id=seeds.next_id()
    )
    return Request("POST", "/completions/", _run(code, user, seeds.screenshot("x"), seeds.VIDEO))


def _verdict(verified: bool) -> Callable[[asyncpg.Connection], Awaitable[Request]]:
    async def prepare(conn: asyncpg.Connection) -> Request:
        map_id, _ = await seeds.game_map(conn)
        player, moderator = await seeds.user(conn), await seeds.user(conn)
        completion_id = await seeds.completion(conn, map_id, player, verified=False)
        body = {"verified": verified, "verified_by": moderator, "reason": "checked"}
        return Request("PUT", f"/completions/{completion_id}/verification", body)

    return prepare


def _tournament_run(video: str | None) -> Callable[[asyncpg.Connection], Awaitable[Request]]:
    async def prepare(conn: asyncpg.Connection) -> Request:
        cycle = await seeds.active_cycle(conn)
        player = await seeds.user(conn)
        await seeds.completion(conn, cycle.map_id, player, verified=True, time=40.0)
        shot = seeds.screenshot("ocr-match")
        return Request("POST", "/completions/", _run(cycle.code, player, shot, video))

    return prepare


def _tournament_verdict(action: str) -> Callable[[asyncpg.Connection], Awaitable[Request]]:
    async def prepare(conn: asyncpg.Connection) -> Request:
        cycle = await seeds.active_cycle(conn)
        tc_id = await seeds.tournament_completion(conn, cycle, await seeds.user(conn))
        return Request("PATCH", f"/tournaments/completions/{tc_id}/{action}", {"verified_by": 7})

    return prepare


async def _upvote(conn: asyncpg.Connection) -> Request:
    message_id = await seeds.upvoted_post(conn, 9)
    body = {"user_id": await seeds.user(conn), "message_id": message_id}
    return Request("POST", "/completions/upvoting", body)


async def _edit_create(conn: asyncpg.Connection) -> Request:
    user = await seeds.user(conn)
    _, code = await seeds.game_map(conn)
    body = {"code": code, "proposed_changes": {"checkpoints": 7}, "reason": "x", "created_by": user}
    return Request("POST", "/maps/map-edits/", body)


async def _edit_resolve(conn: asyncpg.Connection) -> Request:
    edit_id, moderator = await seeds.edit_request(conn)
    body = {"accepted": True, "resolved_by": moderator, "rejection_reason": "no"}
    return Request("PUT", f"/maps/map-edits/{edit_id}/resolve", body)


async def _link_playtest(conn: asyncpg.Connection) -> Request:
    _, unofficial = await seeds.game_map(conn, official=False)
    body = {"official_code": seeds.new_code(), "unofficial_code": unofficial}
    return Request("POST", "/maps/link-codes/", body)


async def _map_create(conn: asyncpg.Connection) -> Request:
    creator = await seeds.user(conn)
    body = {
        "code": seeds.new_code(),
        "map_name": "Hanamura",
        "checkpoints": 10,
        "difficulty": "Hard",
        "creators": [{"id": creator, "is_primary": True}],
    }
    return Request("POST", "/maps", body)


def _playtest_post(
    action: str, body: dict[str, Any], votes: int = 0
) -> Callable[[asyncpg.Connection], Awaitable[Request]]:
    async def prepare(conn: asyncpg.Connection) -> Request:
        seeded = await seeds.playtest(conn, votes=votes)
        return Request("POST", f"/maps/playtests/{seeded.thread_id}/{action}", body)

    return prepare


async def _vote_cast(conn: asyncpg.Connection) -> Request:
    seeded = await seeds.playtest(conn)
    path = f"/maps/playtests/{seeded.thread_id}/vote/{seeded.voter_id}"
    return Request("POST", path, {"difficulty": 6.5})


async def _vote_remove(conn: asyncpg.Connection) -> Request:
    seeded = await seeds.playtest(conn)
    await seeds.vote(conn, seeded.map_id, seeded.thread_id, seeded.voter_id, 2.0)
    return Request("DELETE", f"/maps/playtests/{seeded.thread_id}/vote/{seeded.voter_id}")


async def _reroll(conn: asyncpg.Connection) -> Request:
    cycle = await seeds.active_cycle(conn, spare_maps=2)
    return Request("POST", f"/tournaments/categories/{cycle.category_id}/reroll-active")


def _s(
    name: str,
    events: set[str],
    prepare: Callable[[asyncpg.Connection], Awaitable[Request]],
    ok: int = 201,
) -> Scenario:
    return Scenario(name, frozenset(events), ok, prepare)


SCENARIOS: list[Scenario] = [
    _s("xp-grant", {"api.xp.grant"}, _xp),
    _s("notification", {"api.notification.delivery"}, _notification),
    _s("newsfeed", {"api.newsfeed.create"}, _newsfeed),
    _s("guide", {"api.xp.grant", "api.newsfeed.create"}, _guide),
    _s("run-ocr-match", {"completion.ocr.requested"}, _ocr_run("ocr-match")),
    _s("run-ocr-mismatch", {"completion.ocr.requested"}, _ocr_run("ocr-mismatch")),
    _s("run-ocr-error", {"completion.ocr.requested"}, _ocr_run("ocr-error")),
    _s("run-video", {"api.completion.submission"}, _video_run),
    _s(
        "run-supersede",
        {"api.completion.verification.delete", "api.completion.submission"},
        _superseding_run,
    ),
    _s("run-verify", {"api.completion.verification"}, _verdict(True), 200),
    _s("run-reject", {"api.completion.verification"}, _verdict(False), 200),
    _s("tournament-video", {"api.tournament.completion.created"}, _tournament_run(seeds.VIDEO)),
    _s("tournament-ocr", {"tournament.ocr.requested"}, _tournament_run(None)),
    _s(
        "tournament-verify",
        {"api.tournament.verification.changed", "api.xp.grant"},
        _tournament_verdict("verify"),
        200,
    ),
    _s("upvote-milestone", {"api.completion.upvote"}, _upvote),
    _s("map-edit-create", {"api.map_edit.created"}, _edit_create),
    _s(
        "map-edit-accept",
        {"api.map_edit.resolved", "api.newsfeed.create", "api.notification.delivery"},
        _edit_resolve,
        204,
    ),
    _s(
        "map-link-playtest",
        {"api.playtest.create", "map.linked.newsfeed.requested"},
        _link_playtest,
    ),
    _s("map-create", {"api.playtest.create"}, _map_create),
    _s("vote-cast", {"api.playtest.vote.cast"}, _vote_cast, 202),
    _s("vote-remove", {"api.playtest.vote.remove"}, _vote_remove, 202),
    _s(
        "playtest-approve",
        {"api.playtest.approve"},
        _playtest_post("approve", {"verifier_id": VERIFIER}, votes=1),
        202,
    ),
    _s(
        "playtest-force-accept",
        {"api.playtest.force_accept"},
        _playtest_post("force-accept", {"verifier_id": VERIFIER, "difficulty": "Extreme"}),
        202,
    ),
    _s(
        "playtest-force-deny",
        {"api.playtest.force_deny"},
        _playtest_post("force-deny", {"verifier_id": VERIFIER, "reason": "Unfinished"}),
        202,
    ),
    _s(
        "playtest-reset",
        {"api.playtest.reset"},
        _playtest_post(
            "reset",
            {
                "verifier_id": VERIFIER,
                "reason": "Checkpoint skip fixed",
                "remove_votes": True,
                "remove_completions": True,
            },
            votes=1,
        ),
        202,
    ),
    _s("tournament-reroll", {"api.tournament.rollover"}, _reroll),
]
