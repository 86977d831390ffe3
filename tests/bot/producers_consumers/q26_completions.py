"""Q26 cases of completions: submission, review card, verdict, upvotes, OCR.

OCR runs go through POST /completions/ and the API worker's `completion.ocr.requested`
continuation against the fake OCR service; its screenshot URL picks the answer.
"""

from __future__ import annotations

from typing import Any

from tests.bot.q26_flow import Flow, Q26Case, channel
from tests.support import seed, seed_ocr_jobs
from tests.support import seed_completions as sc

SUBMIT = "/api/v3/completions/"


async def _ocr_run(flow: Flow, answer: str) -> dict[str, Any]:
    """A screenshot-only run by an unflagged player with an Overwatch name (OCR is asked)."""
    owner = flow.env.owner
    player = await seed.user(owner)
    await seed.overwatch_name(owner, player, f"Runner{player % 100000}")
    map_id, code = await seed.game_map(owner)
    body = {
        "code": code,
        "user_id": player,
        "time": seed_ocr_jobs.RUN_TIME,
        "screenshot": seed_ocr_jobs.screenshot(answer),
    }
    response = await flow.env.api.post(SUBMIT, json=body)
    assert response.status_code == 201, response.text
    completion_id: int = await owner.fetchval(
        "SELECT id FROM core.completions WHERE map_id = $1 AND user_id = $2", map_id, player
    )
    return {"player": player, "completion_id": completion_id}


async def _autoverification_failed_produce(flow: Flow) -> dict[str, Any]:
    return await _ocr_run(flow, "ocr-mismatch")


async def _autoverification_failed_check(flow: Flow, run: dict[str, Any]) -> None:
    await flow.consumed_job("completion.ocr.requested")
    job = await flow.consumed_job("api.completion.autoverification.failed")
    # The OCR report goes to the staff alerts channel.
    flow.sent_once(job, channel(flow.channels.job_alerts))


async def check_submission(flow: Flow, body: dict[str, Any]) -> None:
    job = await flow.consumed_job("api.completion.submission")
    card = flow.sent_once(job, channel(flow.channels.verification_queue))
    stored = await flow.env.owner.fetchval(
        "SELECT verification_id FROM core.completions WHERE user_id = $1", body["user_id"]
    )
    assert stored == card["message_id"]


async def _upvote_produce(flow: Flow) -> dict[str, int]:
    owner = flow.env.owner
    post = await flow.existing_message(flow.channels.completions)
    map_id, _ = await seed.game_map(owner)
    completion_id = await seed.verified_completion(owner, map_id, await seed.user(owner))
    await owner.execute(
        "UPDATE core.completions SET message_id = $2 WHERE id = $1", completion_id, post.message_id
    )
    await sc.upvotes(owner, post.message_id, 9)
    body = {"user_id": await seed.user(owner), "message_id": post.message_id}
    response = await flow.env.api.post("/api/v3/completions/upvoting", json=body)
    assert response.status_code == 201, response.text
    return body


async def _upvote_check(flow: Flow, body: dict[str, int]) -> None:
    job = await flow.consumed_job("api.completion.upvote")
    forward = f"forward:{flow.channels.upvotes}:{body['message_id']}"
    flow.sent_once(job, forward)


async def _verification_check(flow: Flow, state: tuple[int, int]) -> None:
    completion_id, _ = state
    job = await flow.consumed_job("api.completion.verification")
    await _published(flow, job, completion_id)


async def _published(flow: Flow, job: Any, completion_id: int) -> None:
    """A verified run's post in the completions channel, its id stored, its player notified."""
    post = flow.sent_once(job, channel(flow.channels.completions))
    row = await flow.env.owner.fetchrow(
        "SELECT user_id, message_id FROM core.completions WHERE id = $1", completion_id
    )
    assert row["message_id"] == post["message_id"]
    notified = await flow.env.owner.fetchval(
        "SELECT count(*) FROM notifications.events "
        "WHERE user_id = $1 AND event_type = 'verification_approved'",
        row["user_id"],
    )
    assert notified == 1


async def _verification_delete_produce(flow: Flow) -> int:
    """A pending run whose review card exists, then a faster run of the same player."""
    owner = flow.env.owner
    await seed.user(owner, flow.env.settings.bot_user_id)
    card = await flow.existing_message(flow.channels.verification_queue)
    map_id, code = await seed.game_map(owner)
    player = await seed.user(owner)
    await sc.pending_completion(owner, map_id, player, time=80.0, verification_id=card.message_id)
    body = {"code": code, "user_id": player, "time": 70.0, "screenshot": sc.SCREENSHOT}
    response = await flow.env.api.post(SUBMIT, json={**body, "video": sc.VIDEO})
    assert response.status_code == 201, response.text
    return card.message_id


async def check_verification_delete(flow: Flow, card_id: int) -> None:
    job = await flow.consumed_job("api.completion.verification.delete")
    assert card_id not in flow.stack.recorder.messages()
    assert [op["message_id"] for op in flow.operations(job, "delete")] == [card_id]


async def _ocr_requested_produce(flow: Flow) -> dict[str, Any]:
    return await _ocr_run(flow, "ocr-match")


async def _ocr_requested_check(flow: Flow, run: dict[str, Any]) -> None:
    await flow.consumed_job("completion.ocr.requested")
    verified = await flow.env.owner.fetchval(
        "SELECT verified FROM core.completions WHERE id = $1", run["completion_id"]
    )
    assert verified is True
    job = await flow.consumed_job("api.completion.verification")
    await _published(flow, job, run["completion_id"])


CASES = [
    Q26Case(
        "api.completion.autoverification.failed",
        _autoverification_failed_produce,
        _autoverification_failed_check,
    ),
    Q26Case(
        "api.completion.submission",
        lambda flow: flow.produce("completion-submit-manual-review"),
        check_submission,
    ),
    Q26Case("api.completion.upvote", _upvote_produce, _upvote_check),
    Q26Case(
        "api.completion.verification",
        lambda flow: flow.produce("completion-verify"),
        _verification_check,
    ),
    Q26Case(
        "api.completion.verification.delete",
        _verification_delete_produce,
        check_verification_delete,
    ),
    Q26Case("completion.ocr.requested", _ocr_requested_produce, _ocr_requested_check),
]
