"""What a Q26 case uses: the stack, the producer cases' environment, and durable evidence.

A case seeds what its producer needs, calls the producer through the served API, then, with
the bot's worker running, waits for the job the producer (or the API worker's continuation)
enqueued and checks what its consumer left behind: sends in the recorder, bindings, receipts
and domain rows. Message text is never looked at.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from genji_bot.effects.port import Channel, NewForumThread, Outgoing, Sent
from genji_bot.settings import Channels

from tests.support.producer_cases import CASES as PRODUCER_CASES
from tests.support.producer_cases import ProducerCase, ProducerEnv

from .bot_stack import BotStack, eventually

CONSUMER_DEADLINE = 20.0


def producer_case(name: str) -> ProducerCase:
    """One of tests/api/producer_cases, by name."""
    for case in PRODUCER_CASES:
        if case.name == name:
            return case
    raise LookupError(f"no producer case named {name!r}")


def channel(channel_id: int) -> str:
    """The recorder's destination key of a channel or thread."""
    return f"channel:{channel_id}"


@dataclass
class Flow:
    stack: BotStack
    env: ProducerEnv
    earlier_jobs: frozenset[UUID]
    """Jobs of cases run before this one on the shared stack, never looked at."""

    @classmethod
    async def begin(cls, stack: BotStack, env: ProducerEnv) -> Flow:
        rows = await stack.owner.fetch("SELECT id FROM jobs")
        return cls(stack=stack, env=env, earlier_jobs=frozenset(row["id"] for row in rows))

    @property
    def channels(self) -> Channels:
        return self.stack.settings.channels

    async def call(self, case: ProducerCase, state: Any) -> None:
        """Run a producer case's operation and require its success status."""
        response = await case.act(self.env, state)
        if response is not None:
            assert response.status_code == case.ok, (case.name, response.text)

    async def produce(self, name: str) -> Any:
        """Seed and run the producer case `name`; returns what its setup returned."""
        case = producer_case(name)
        state = await case.setup(self.env)
        await self.call(case, state)
        return state

    async def jobs(self, event: str, key_prefix: str = "", key: str | None = None) -> list[UUID]:
        """This case's jobs of `event`: keys starting with `key_prefix`, or equal to `key`."""
        return [
            row["id"]
            for row in await self.stack.jobs(event)
            if row["id"] not in self.earlier_jobs
            and (row["event_key"] or "").startswith(key_prefix)
            and (key is None or row["event_key"] == key)
        ]

    async def job(self, event: str, key_prefix: str = "", *, key: str | None = None) -> UUID:
        """The one job of `event` (by key prefix or key), once it exists.

        A case names its job by key wherever consumers of earlier cases, still finishing their
        follow-up jobs on the shared stack, may enqueue more jobs of the same event.
        """

        async def probe() -> list[UUID] | None:
            return await self.jobs(event, key_prefix, key) or None

        found = await eventually(probe, CONSUMER_DEADLINE, f"a {event} job {key or key_prefix}")
        assert len(found) == 1, f"expected one {event} job, found {len(found)}"
        return found[0]

    async def consumed(self, job_id: UUID) -> None:
        """Until the job settles; it must have succeeded (else its recorded error is shown)."""
        status = await self.stack.until_status(
            job_id, "succeeded", "failed", deadline=CONSUMER_DEADLINE
        )
        if status != "succeeded":
            response = await self.stack.http.get(f"/internal/jobs/{job_id}")
            raise AssertionError(f"job {job_id} {status}: {response.json()}")

    async def consumed_job(
        self, event: str, key_prefix: str = "", *, key: str | None = None
    ) -> UUID:
        job_id = await self.job(event, key_prefix, key=key)
        await self.consumed(job_id)
        return job_id

    def sends(self, job_id: UUID, destination: str | None = None) -> list[dict[str, Any]]:
        return self.stack.recorder.sends(job_id=str(job_id), destination=destination)

    def sent_once(self, job_id: UUID, destination: str) -> dict[str, Any]:
        """The single message the job delivered to `destination`."""
        found = self.sends(job_id, destination)
        everything = [send["destination"] for send in self.sends(job_id)]
        assert len(found) == 1, f"{destination}: {len(found)} sends; the job sent to {everything}"
        return found[0]

    def operations(self, job_id: UUID, op: str) -> list[dict[str, Any]]:
        return [
            entry
            for entry in self.stack.recorder.operations(op)
            if entry.get("job_id") == str(job_id)
        ]

    async def existing_message(self, channel_id: int) -> Sent:
        """A message the bot posted earlier, present in the recorded Discord world."""
        return await self.stack.recorder.send(Channel(channel_id), Outgoing(content="earlier"))

    async def existing_thread(self) -> int:
        """A playtest forum thread made earlier; its id is also its starter message's."""
        sent = await self.stack.recorder.send(
            NewForumThread(self.channels.playtest_forum, "earlier", ("Open",)),
            Outgoing(content="earlier"),
        )
        assert sent.thread_id is not None
        return sent.thread_id

    async def binding(self, job_id: UUID, destination: str) -> dict[str, Any]:
        rows = await self.stack.owner.fetch(
            "SELECT effect_key, state, channel_id, message_id, thread_id FROM effect_bindings "
            "WHERE job_id = $1 AND destination = $2",
            job_id,
            destination,
        )
        assert len(rows) == 1, f"{destination}: {len(rows)} bindings of job {job_id}"
        return dict(rows[0])

    async def receipts(self, job_id: UUID) -> list[str]:
        rows = await self.stack.owner.fetch(
            "SELECT effect_key FROM effect_receipts WHERE job_id = $1 AND completed_at IS NOT NULL",
            job_id,
        )
        return [row["effect_key"] for row in rows]


@dataclass(frozen=True)
class Q26Case:
    """One entrypoint's producer and consumer, end to end."""

    event: str
    produce: Callable[[Flow], Awaitable[Any]]
    """Seeds and calls the real producer; returns what `check` needs."""
    check: Callable[[Flow, Any], Awaitable[None]]
    """With the bot's worker running: waits for the consumer's job and checks its effect."""
