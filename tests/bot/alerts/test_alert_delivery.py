"""The alert supervisor delivers each held job's card and each failure episode's reply once,
through real workers, the served API and the recorder; assertions are on durable state only."""

from __future__ import annotations

from uuid import UUID, uuid4

import httpx
import msgspec
import pytest
from genji_bot.alerts.cards import card
from genji_bot.effects.port import Channel
from genji_sdk.alerts import AlertCard

from tests.bot.bot_stack import BotStack, eventually
from tests.support import seed_alerts as sa

from . import alert_flow as af

pytestmark = pytest.mark.queue


async def test_held_bot_and_api_jobs_each_get_one_card_and_one_reply(stack: BotStack) -> None:
    bot_job = await sa.enqueue_malformed(stack.owner, sa.BOT_EVENT, "bot-held")
    api_job = await sa.enqueue_malformed(stack.owner, sa.API_EVENT, "api-held")
    async with stack.worker():
        await stack.until_status(bot_job, "failed")
    await stack.until_status(api_job, "failed")  # the served API's own worker held it

    delivering = af.supervisor(stack)
    async with af.running(delivering):
        for job in (bot_job, api_job):
            await af.until_notified(stack, job)
            await af.until_rendered(stack, job)
    # Polling again finds nothing due and sends nothing.
    again = af.supervisor(stack)
    assert await again.deliver_due() == 0
    await again.api.aclose()

    recipient = stack.settings.alert_recipient_id
    for job in (bot_job, api_job):
        [card] = af.card_sends(stack, job)
        [reply] = af.reply_sends(stack, job, 0)
        assert card["destination"] == reply["destination"] == af.alerts_destination(stack)
        assert af.mentioned(card) == {"users": [], "roles": []}
        assert af.mentioned(reply) == {"users": [recipient], "roles": []}
        record = await af.alert(stack, job)
        assert (record["message_id"], record["channel_id"]) == (
            card["message_id"],
            card["channel_id"],
        )
        [episode] = await af.episodes(stack, job)
        assert (episode["retry_generation"], episode["reply_message_id"]) == (
            0,
            reply["message_id"],
        )


async def test_overlapping_and_restarted_supervisors_deliver_once(stack: BotStack) -> None:
    jobs = [await sa.held(stack.owner, sa.BOT_EVENT, f"overlap-{n}") for n in range(3)]
    async with af.running(af.supervisor(stack), af.supervisor(stack)):
        for job in jobs:
            await af.until_notified(stack, job)
    # A restarted supervisor (a new instance, with no memory) finds nothing due.
    restarted = af.supervisor(stack)
    for _ in range(2):
        assert await restarted.deliver_due() == 0
    await restarted.api.aclose()
    for job in jobs:
        assert len(af.card_sends(stack, job)) == 1
        assert len(af.reply_sends(stack, job)) == 1


async def test_a_reply_whose_id_was_lost_is_found_in_history_not_resent(
    stack: BotStack,
) -> None:
    job = await sa.held(stack.owner, sa.BOT_EVENT, "lost-reply")
    stack.recorder.command("job.alert:alert-reply", "lose-reply")
    async with af.running(af.supervisor(stack)):
        episode = await af.until_notified(stack, job)
    [reply] = af.reply_sends(stack, job)
    assert episode["reply_message_id"] == reply["message_id"]
    assert len(af.card_sends(stack, job)) == 1


async def test_q18_a_failure_held_while_the_api_was_down_is_alerted_once_it_is_back(
    stack: BotStack,
) -> None:
    outage = _SwitchableTransport()
    delivering = af.supervisor(stack, transport=outage)
    async with af.running(delivering):
        await eventually(lambda: _refused(outage, 2), 10, "polls refused during the outage")
        job = await sa.held(stack.owner, sa.BOT_EVENT, "held-while-down")
        await eventually(lambda: _refused(outage, 3), 10, "another poll refused")
        assert await af.alert(stack, job) is None  # nothing read it while the API was down
        outage.down = False
        await af.until_notified(stack, job)
        await af.until_rendered(stack, job)
    assert len(af.card_sends(stack, job)) == 1
    assert len(af.reply_sends(stack, job)) == 1


async def test_a_new_failure_after_a_retry_is_a_new_episode_and_edits_never_mention(
    stack: BotStack,
) -> None:
    job = await sa.held(stack.owner, sa.BOT_EVENT, "fails-twice")
    async with af.running(af.supervisor(stack)):
        await af.until_notified(stack, job, 0)
        first = await af.until_rendered(stack, job)
        await sa.retry(stack.owner, job)  # the operator retried: queued again
        queued = await af.until_rendered(stack, job, after=first["desired_version"])
        assert len(af.reply_sends(stack, job)) == 1  # an edit is not a notification
        await sa.hold(stack.owner, job, "boom again")
        await af.until_notified(stack, job, 1)
        failed = await af.until_rendered(stack, job, after=queued["desired_version"])
    [card] = af.card_sends(stack, job)
    assert failed["message_id"] == card["message_id"]
    edits = af.card_edits(stack, card["message_id"])
    assert len(edits) >= 2
    assert all(af.mentioned(edit) == {"users": [], "roles": []} for edit in edits)
    assert [len(af.reply_sends(stack, job, g)) for g in (0, 1)] == [1, 1]
    assert [e["state"] for e in await af.episodes(stack, job)] == ["notified", "notified"]


async def test_a_deleted_card_is_recreated(stack: BotStack) -> None:
    job = await sa.held(stack.owner, sa.BOT_EVENT, "deleted-card")
    async with af.running(af.supervisor(stack)):
        await af.until_notified(stack, job)
        first = await af.until_rendered(stack, job)
        await stack.recorder.delete(first["channel_id"], first["message_id"])
        await sa.retry(stack.owner, job)  # the next change edits the card
        await eventually(lambda: _recreated(stack, job, first["message_id"]), 20, "a new card")
    cards = af.card_sends(stack, job)
    assert len(cards) == 2
    assert (await af.alert(stack, job))["message_id"] == cards[1]["message_id"]
    assert len(af.reply_sends(stack, job)) == 1


async def _recreated(stack: BotStack, job: object, old: int) -> bool:
    row = await stack.owner.fetchrow(
        "SELECT message_id, rendered_version, desired_version FROM job_alerts WHERE job_id = $1",
        job,
    )
    return bool(
        row["message_id"] not in (None, old) and row["rendered_version"] == row["desired_version"]
    )


async def _refused(outage: _SwitchableTransport, count: int) -> bool:
    return outage.refused >= count


class _SwitchableTransport(httpx.AsyncBaseTransport):
    """The API's network path: refuses connections while `down`."""

    def __init__(self) -> None:
        self.down = True
        self.refused = 0
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            self.refused += 1
            raise httpx.ConnectError("connection refused", request=request)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def test_a_restarted_supervisor_takes_over_intents_left_without_an_id(
    stack: BotStack,
) -> None:
    unsent = await sa.held(stack.owner, sa.BOT_EVENT, "intent-unsent")
    sent = await sa.held(stack.owner, sa.BOT_EVENT, "intent-sent")
    due = (await stack.http.get("/internal/alerts")).json()["alerts"]
    cards = {UUID(item["job_id"]): msgspec.convert(item, AlertCard) for item in due}
    # A supervisor that stopped: both intents recorded, and only the second card delivered.
    channel = Channel(stack.settings.channels.job_alerts)
    for job in (unsent, sent):
        message = card(cards[job])
        begun = await stack.http.post(
            f"/internal/alerts/{job}/card",
            json={
                "holder": str(uuid4()),
                "version": cards[job].desired_version,
                "fingerprint": message.fingerprint(),
                "channel_id": channel.channel_id,
                "lease_seconds": 60,
            },
        )
        assert begun.json()["decision"] == "fresh"
    delivered = await stack.recorder.send(channel, card(cards[sent]))

    async with af.running(af.supervisor(stack, alert_lease_seconds=0.5)):
        for job in (unsent, sent):
            await af.until_notified(stack, job)
            await af.until_rendered(stack, job)
    assert len(af.card_sends(stack, unsent)) == 1
    assert af.card_sends(stack, sent) == []  # adopted from the channel, not sent again
    assert (await af.alert(stack, sent))["message_id"] == delivered.message_id
