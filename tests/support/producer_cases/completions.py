"""Producer cases of completion submission, verdicts, upvotes and XP rewards."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from tests.support import seed
from tests.support import seed_completions as sc

from .case import ProducerCase, ProducerEnv

SUBMIT = "/api/v3/completions/"
_message_ids = itertools.count(9_100_000)


def _run(code: str, user_id: int, time: float, video: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "code": code,
        "user_id": user_id,
        "time": time,
        "screenshot": sc.SCREENSHOT,
    }
    if video:
        body["video"] = video
    return body


async def _plain_map_run(env: ProducerEnv, video: str | None = None) -> dict[str, Any]:
    _, code = await seed.game_map(env.owner)
    return _run(code, await seed.user(env.owner), 50.0, video)


async def _superseding_run(env: ProducerEnv) -> dict[str, Any]:
    await seed.user(env.owner, env.settings.bot_user_id)
    map_id, code = await seed.game_map(env.owner)
    player = await seed.user(env.owner)
    await sc.pending_completion(env.owner, map_id, player, time=80.0, verification_id=4242)
    return _run(code, player, 70.0, sc.VIDEO)


async def _tournament_pb_run(env: ProducerEnv) -> dict[str, Any]:
    cycle = await sc.active_cycle(env.owner)
    return _run(cycle.code, await seed.user(env.owner), 45.0)


async def _tournament_only_run(env: ProducerEnv, video: str | None) -> dict[str, Any]:
    cycle = await sc.active_cycle(env.owner)
    player = await seed.user(env.owner)
    await seed.verified_completion(env.owner, cycle.map_id, player, time=40.0)
    return _run(cycle.code, player, 45.0, video)


async def _submit(env: ProducerEnv, body: dict[str, Any]) -> httpx.Response:
    return await env.api.post(SUBMIT, json=body)


async def _pending(env: ProducerEnv) -> tuple[int, int]:
    map_id, _ = await seed.game_map(env.owner)
    player, moderator = await seed.user(env.owner), await seed.user(env.owner)
    return await sc.pending_completion(env.owner, map_id, player), moderator


def _verdict(verified: bool) -> Any:
    async def act(env: ProducerEnv, state: tuple[int, int]) -> httpx.Response:
        completion_id, moderator = state
        return await env.api.put(
            f"/api/v3/completions/{completion_id}/verification",
            json={"verified": verified, "verified_by": moderator, "reason": "checked"},
        )

    return act


async def _tournament_run(env: ProducerEnv) -> int:
    cycle = await sc.active_cycle(env.owner)
    return await sc.tournament_completion(env.owner, cycle, await seed.user(env.owner))


def _tournament_verdict(action: str) -> Any:
    async def act(env: ProducerEnv, tc_id: int) -> httpx.Response:
        return await env.api.patch(
            f"/api/v3/tournaments/completions/{tc_id}/{action}", json={"verified_by": 7}
        )

    return act


async def _nine_upvotes(env: ProducerEnv) -> dict[str, int]:
    map_id, _ = await seed.game_map(env.owner)
    completion_id = await seed.verified_completion(env.owner, map_id, await seed.user(env.owner))
    message_id = next(_message_ids)
    await env.owner.execute(
        "UPDATE core.completions SET message_id = $2 WHERE id = $1", completion_id, message_id
    )
    await sc.upvotes(env.owner, message_id, 9)
    return {"user_id": await seed.user(env.owner), "message_id": message_id}


async def _upvote(env: ProducerEnv, body: dict[str, int]) -> httpx.Response:
    return await env.api.post("/api/v3/completions/upvoting", json=body)


async def _verified_run(env: ProducerEnv) -> int:
    map_id, _ = await seed.game_map(env.owner)
    return await seed.verified_completion(env.owner, map_id, await seed.user(env.owner))


async def _reward(env: ProducerEnv, completion_id: int) -> httpx.Response:
    return await env.api.post(f"/api/v3/completions/{completion_id}/xp", json={})


CASES: list[ProducerCase] = [
    ProducerCase(
        "completion-submit-ocr",
        frozenset({"completion.ocr.requested"}),
        _plain_map_run,
        _submit,
    ),
    ProducerCase(
        "completion-submit-manual-review",
        frozenset({"api.completion.submission"}),
        lambda env: _plain_map_run(env, sc.VIDEO),
        _submit,
    ),
    ProducerCase(
        "completion-submit-supersede",
        frozenset({"api.completion.verification.delete", "api.completion.submission"}),
        _superseding_run,
        _submit,
    ),
    ProducerCase(
        "completion-submit-tournament-pb",
        frozenset({"completion.ocr.requested"}),
        _tournament_pb_run,
        _submit,
    ),
    ProducerCase(
        "tournament-submit-video",
        frozenset({"api.tournament.completion.created"}),
        lambda env: _tournament_only_run(env, sc.VIDEO),
        _submit,
    ),
    ProducerCase(
        "tournament-submit-ocr",
        frozenset({"tournament.ocr.requested"}),
        lambda env: _tournament_only_run(env, None),
        _submit,
    ),
    ProducerCase(
        "completion-verify",
        frozenset({"api.completion.verification"}),
        _pending,
        _verdict(True),
        ok=200,
    ),
    ProducerCase(
        "completion-reject",
        frozenset({"api.completion.verification"}),
        _pending,
        _verdict(False),
        ok=200,
    ),
    ProducerCase(
        "tournament-verify",
        frozenset({"api.tournament.verification.changed", "api.xp.grant"}),
        _tournament_run,
        _tournament_verdict("verify"),
        ok=200,
    ),
    ProducerCase(
        "tournament-reject",
        frozenset({"api.tournament.verification.changed"}),
        _tournament_run,
        _tournament_verdict("reject"),
        ok=200,
    ),
    ProducerCase(
        "upvote-milestone",
        frozenset({"api.completion.upvote"}),
        _nine_upvotes,
        _upvote,
    ),
    ProducerCase(
        "completion-xp",
        frozenset({"api.xp.grant"}),
        _verified_run,
        _reward,
        ok=200,
    ),
]
