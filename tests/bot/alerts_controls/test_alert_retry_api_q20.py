"""A Retry job press through the bot's API client against the real served API and PostgreSQL:
the answer to the first request is lost after the API committed it, the client asks again with
the same idempotency key and gets the recorded result, so the job is requeued once, and a card
refresh that fails afterwards does not turn the accepted retry into a refusal."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from genji_api.settings import ApiSettings
from genji_bot.alerts.custom_ids import RetryControl
from genji_bot.alerts.presses import Press, press_retry
from genji_bot.api import ApiClient

from tests.bot.bot_stack import BOT_USER_ID, issue_bot_key
from tests.support.held_jobs import OPERATOR, bind_alert_card, held_job
from tests.support.served_api import served_api
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

GUILD = 10**18 + 11
ALERTS = 10**18 + 12
CARD = 10**18 + 13


class LosesFirstRetryAnswer(httpx.AsyncBaseTransport):
    """Delivers every request; the first retry's response is read, then lost."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.retries: list[bytes] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.url.path.endswith("/retry"):
            self.retries.append(request.content)
            if len(self.retries) == 1:
                await response.aread()
                await response.aclose()
                raise httpx.ReadTimeout("answer lost", request=request)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.fixture
def alerts_api(db: Database) -> Iterator[str]:
    settings = ApiSettings(
        database_url=db.dsn,
        pool_max_size=4,
        bot_user_id=BOT_USER_ID,
        queue_operator_ids=frozenset({OPERATOR}),
        discord_guild_id=GUILD,
        job_alerts_channel_id=ALERTS,
    )
    with served_api(settings) as url:
        yield url


async def _refresh_fails() -> None:
    raise RuntimeError("Discord refused the edit")


async def test_q20_a_lost_retry_answer_is_asked_again_and_the_job_is_requeued_once(
    alerts_api: str, connect: Connect
) -> None:
    owner = await connect("owner")
    job_id = await held_job(owner)
    await bind_alert_card(owner, job_id, GUILD, ALERTS, CARD)
    transport = LosesFirstRetryAnswer()
    api = ApiClient(alerts_api, await issue_bot_key(owner), transport=transport)
    press = Press(
        actor_id=OPERATOR,
        interaction_id=10**18 + 21,
        guild_id=GUILD,
        channel_id=ALERTS,
        message_id=CARD,
    )
    try:
        answer = await press_retry(api, (OPERATOR,), RetryControl(job_id, 0), press, _refresh_fails)
        assert len(transport.retries) == 2 and transport.retries[0] == transport.retries[1]
        assert answer.startswith("This press was already handled, and the retry was accepted")
        job = await owner.fetchrow(
            "SELECT retry_generation, handler_failures FROM jobs WHERE id = $1", job_id
        )
        assert (job["retry_generation"], job["handler_failures"]) == (1, 0)
        actions = await owner.fetch(
            "SELECT outcome FROM job_actions WHERE job_id = $1 AND action = 'retry'", job_id
        )
        assert [a["outcome"] for a in actions] == ["accepted"]
        status = await owner.fetchval(
            "SELECT q.status::text FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id"
            " WHERE j.id = $1",
            job_id,
        )
        assert status == "queued"
        # A later press of the same old card is refused as stale, and changes nothing.
        again = Press(**{**press.__dict__, "interaction_id": 10**18 + 22})
        stale = await press_retry(api, (OPERATOR,), RetryControl(job_id, 0), again, _refresh_fails)
        assert stale.startswith("Nothing was changed: this card is for an older generation")
        assert await owner.fetchval("SELECT retry_generation FROM jobs WHERE id = $1", job_id) == 1
    finally:
        await api.aclose()
