"""Details of a job that failed, was retried and then succeeded, read through the served API
and PostgreSQL: the failure it had before is not shown as its current error."""

from __future__ import annotations

from uuid import UUID, uuid4

import pytest
from genji_bot.alerts.custom_ids import DetailsControl
from genji_bot.alerts.presses import Press, press_details
from genji_bot.api import ApiClient
from genji_queue.complete import queue_complete
from genji_sdk import ClaimToken

from tests.bot.bot_stack import BotStack
from tests.support import seed_alerts as sa
from tests.support.queue_helpers import claim_next

pytestmark = pytest.mark.queue

FAILURE = "ledger write timed out"


def _press(stack: BotStack) -> Press:
    return Press(
        actor_id=sa.OPERATOR,
        interaction_id=10**18 + 31,
        guild_id=stack.settings.guild_id,
        channel_id=stack.settings.channels.job_alerts,
        message_id=None,
    )


async def _succeed(stack: BotStack, job_id: UUID) -> None:
    """Claim the retried job and complete it, as a worker whose handler succeeded does."""
    claimed = await claim_next(stack.owner, uuid4(), sa.BOT_EVENT)
    assert claimed is not None and claimed.queue_manager_id is not None
    claim = ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)
    assert await queue_complete(stack.owner, claim)
    await stack.until_status(job_id, "succeeded")


async def test_details_of_a_job_that_succeeded_after_a_retry_do_not_show_the_old_error(
    stack: BotStack,
) -> None:
    job = await sa.held(stack.owner, sa.BOT_EVENT, "succeeds-after-retry", FAILURE)
    api = ApiClient(stack.url, stack.bot_key)
    control = DetailsControl(job)
    try:
        held = await press_details(api, (sa.OPERATOR,), control, _press(stack))
        assert "State: held" in held and "Held since: " in held
        assert "Last error: " in held and FAILURE in held
        await sa.retry(stack.owner, job)
        await _succeed(stack, job)
        done = await press_details(api, (sa.OPERATOR,), control, _press(stack))
    finally:
        await api.aclose()
    assert "State: succeeded" in done
    assert "Last error: " not in done and "Held since" not in done
    [line] = [line for line in done.splitlines() if FAILURE in line]
    assert line.startswith("Last error, from before it succeeded: ")
    assert "Retry job: not available: it succeeded." in done
