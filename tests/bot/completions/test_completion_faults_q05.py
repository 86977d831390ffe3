"""Q05: the recorded bot is SIGKILLed at boundaries of the verdict workflow, one process after
another; the next process resumes the job and every mutation and send that an earlier one
completed happens once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.bot import completion_flow as flow
from tests.bot.bot_stack import BotProcess, BotStack, eventually

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

VERIFICATION = "api.completion.verification"


class Kill(NamedTuple):
    effect: str
    action: str
    """crash: before the effect; crash-after: once it is done; crash-mid: a send delivered, its
    id not recorded."""

    def evidence(self) -> str | None:
        """The recorder's stage proving the process died at this boundary."""
        return {"crash": "crash", "crash-after": "done"}.get(self.action)


@pytest.fixture
def bots() -> Iterator[list[BotProcess]]:
    started: list[BotProcess] = []
    yield started
    for bot in started:
        bot.kill()


@pytest.mark.parametrize(
    "kills",
    [
        pytest.param(
            [
                Kill("card:completion", "crash"),
                Kill("card:completion", "crash-mid"),
                Kill("xp:verification", "crash"),
            ],
            id="Q05-before-card-mid-card-before-xp",
        ),
        pytest.param(
            [Kill("card:completion", "crash-after"), Kill("xp:verification", "crash-after")],
            id="Q05-after-card-after-xp",
        ),
        pytest.param(
            [
                Kill("mastery:recompute", "crash-after"),
                Kill("delete:verification", "crash"),
                Kill("roles:skill", "crash-after"),
            ],
            id="Q05-after-mastery-before-cleanup-after-roles",
        ),
    ],
)
async def test_q05_a_killed_verdict_workflow_resumes_without_repeating(
    stack: BotStack, bots: list[BotProcess], tmp_path: Path, kills: list[Kill]
) -> None:
    await stack.owner.execute("UPDATE queue_settings SET stale_heartbeat = interval '1.5 s'")
    run = await flow.player_on_new_map(stack)

    def start() -> BotProcess:
        bot = BotProcess.start(stack, tmp_path / f"bot-{len(bots)}.log")
        bots.append(bot)
        return bot

    job_id = ""
    for kill in kills:
        bot = start()
        stack.recorder.command(f"{VERIFICATION}:{kill.effect}", kill.action, pid=bot.pid)
        if not job_id:
            submitted = await flow.submit(stack, run, 100.0)
            await stack.until_status(submitted["job_status"]["id"], "succeeded")
            completion_id = submitted["completion_id"]
            card = (await flow.completion_row(stack, completion_id))["verification_id"]
            job_id = await flow.verdict(stack, completion_id, run, verified=True)

        async def killed(bot: BotProcess = bot) -> bool:
            return bot.process.poll() is not None

        await eventually(killed, 30, f"the bot to be killed at {kill}")
        assert bot.process.returncode == -9, bot.log()
        if (stage := kill.evidence()) is not None:
            assert stack.recorder.recorder.count(kill.effect, stage, job_id, bot.pid) == 1
        else:
            assert [s["pid"] for s in stack.recorder.sends(effect=kill.effect)] == [bot.pid]
        assert await stack.status(job_id) != "succeeded"

    start()
    await stack.until_status(job_id, "succeeded", deadline=30)

    assert await flow.ledgers(stack, run) == flow.first_world_record(run)
    assert await flow.receipts(stack, job_id) == flow.VERIFIED_RECEIPTS
    assert flow.sends_of(stack, job_id) == flow.VERIFIED_SENDS
    row = await flow.completion_row(stack, completion_id)
    announced = stack.recorder.sends(destination=flow.COMPLETIONS)
    assert [a["message_id"] for a in announced] == [row["message_id"]]
    assert card not in stack.recorder.messages()
    role_changes = [r for r in stack.recorder.operations("roles") if r["user_id"] == run.user_id]
    assert len(role_changes) == 1
