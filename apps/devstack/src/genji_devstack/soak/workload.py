"""The mixed workload: scenarios in a seeded order through the API's real routes, a few at a
time, every answer recorded. A submission is committed when its route answered its success
status; an answer that never came (API killed, frozen or stopped) leaves it unknown, which
the checks do not count as committed (its jobs may or may not exist)."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx
from httpx import Response

from genji_devstack.soak import seeds
from genji_devstack.soak.scenarios import SCENARIOS, Intent, Request, Scenario
from genji_devstack.soak.stack import CONNECTION_ERRORS, SoakStack

REQUEST_TIMEOUT = 10.0
SETUP_ATTEMPTS = 20
CONNECT_ATTEMPTS = 60
TOP_UP_ATTEMPTS = 3
EXTRA_NUMBERS = 1_000_000
"""Submissions a fault asks for are numbered from here, apart from the plan and its top-ups."""


@dataclass
class Submission:
    number: int
    scenario: Scenario
    started: float
    finished: float = 0.0
    status: int | None = None
    """The HTTP status, or None when no answer arrived."""
    body: Any = None
    error: str | None = None
    intents: tuple[Intent, ...] = ()

    @property
    def request_id(self) -> str:
        return f"soak-{self.number}"

    @property
    def committed(self) -> bool:
        return self.status == self.scenario.ok


@dataclass
class Workload:
    stack: SoakStack
    rng: random.Random
    total: int
    duration: float
    concurrency: int = 3
    submissions: list[Submission] = field(default_factory=list)
    extra: int = 0

    def plan(self) -> list[Scenario]:
        """Every scenario once (in a seeded order), then seeded picks."""
        first = list(SCENARIOS)
        self.rng.shuffle(first)
        rest = [self.rng.choice(SCENARIOS) for _ in range(max(0, self.total - len(first)))]
        return (first + rest)[: max(self.total, len(first))]

    async def run(self) -> None:
        """Seed the tournament edition whose deferred results the API worker publishes, then
        submit the plan."""
        conn = await self.stack.connect()
        try:
            await seeds.ended_edition(conn)
        finally:
            await conn.close()
        plan = self.plan()
        start = time.monotonic()
        pace = self.duration / max(1, len(plan))
        queue: asyncio.Queue[tuple[int, Scenario]] = asyncio.Queue()
        for number, scenario in enumerate(plan, 1):
            queue.put_nowait((number, scenario))

        async def client() -> None:
            conn: asyncpg.Connection | None = None
            async with httpx.AsyncClient(
                base_url=f"{self.stack.url}/api/v3",
                headers={"X-API-KEY": self.stack.api_key},
                timeout=REQUEST_TIMEOUT,
                limits=httpx.Limits(max_keepalive_connections=0),
            ) as http:
                while not queue.empty():
                    number, scenario = queue.get_nowait()
                    # Spread the submissions over the run, so faults meet work in flight.
                    due = start + number * pace
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                    conn = await self._submit(http, conn, number, scenario)
            if conn is not None:
                await conn.close()

        await asyncio.gather(*(client() for _ in range(self.concurrency)))
        await self._top_up(len(plan))

    async def _top_up(self, submitted: int) -> None:
        """Submit again each scenario none of whose submissions committed (its answers were
        lost to faults), so that every entrypoint is reached."""
        conn: asyncpg.Connection | None = None
        async with httpx.AsyncClient(
            base_url=f"{self.stack.url}/api/v3",
            headers={"X-API-KEY": self.stack.api_key},
            timeout=REQUEST_TIMEOUT,
        ) as http:
            for scenario in SCENARIOS:
                for _ in range(TOP_UP_ATTEMPTS):
                    if any(s.committed for s in self.submissions if s.scenario is scenario):
                        break
                    submitted += 1
                    conn = await self._submit(http, conn, submitted, scenario)
        if conn is not None:
            await conn.close()

    async def submit(self, name: str) -> None:
        """One more submission of the scenario `name`, checked like every other."""
        scenario = next(s for s in SCENARIOS if s.name == name)
        self.extra += 1
        async with httpx.AsyncClient(
            base_url=f"{self.stack.url}/api/v3",
            headers={"X-API-KEY": self.stack.api_key},
            timeout=REQUEST_TIMEOUT,
        ) as http:
            conn = await self._submit(http, None, EXTRA_NUMBERS + self.extra, scenario)
        await conn.close()

    async def _submit(
        self,
        http: httpx.AsyncClient,
        conn: asyncpg.Connection | None,
        number: int,
        scenario: Scenario,
    ) -> asyncpg.Connection:
        request = None
        for _ in range(SETUP_ATTEMPTS):
            try:
                if conn is None or conn.is_closed():
                    conn = await self.stack.connect()
                request = await scenario.prepare(conn)
                break
            except CONNECTION_ERRORS:
                # The cluster was killed under the seeding: seed again with new ids.
                conn = None
                await asyncio.sleep(0.5)
        assert conn is not None and request is not None, "the database never came back"
        submission = Submission(number, scenario, time.monotonic(), intents=request.intents)
        self.submissions.append(submission)
        try:
            response = await self._send(http, request, submission.request_id)
            submission.status = response.status_code
            try:
                submission.body = response.json() if response.content else None
            except ValueError:
                submission.body = response.text[:200]
        except httpx.HTTPError as error:
            submission.error = type(error).__name__
        submission.finished = time.monotonic()
        return conn

    async def _send(self, http: httpx.AsyncClient, request: Request, request_id: str) -> Response:
        """The request, sent again while the API refuses connections (it never reached the
        API then, so nothing can have committed); any other transport error propagates."""
        for _ in range(CONNECT_ATTEMPTS):
            try:
                return await http.request(
                    request.method,
                    request.path,
                    json=request.body,
                    headers={"x-request-id": request_id},
                )
            except httpx.ConnectError:
                await asyncio.sleep(0.5)
        raise httpx.ConnectError("the API refused connections throughout")

    def refusals(self) -> Counter[int]:
        """Statuses of the answered submissions that did not commit."""
        return Counter(
            s.status for s in self.submissions if s.status is not None and not s.committed
        )

    def counts(self) -> tuple[int, int, int]:
        """(committed, unknown, refused)."""
        committed = sum(1 for s in self.submissions if s.committed)
        unknown = sum(1 for s in self.submissions if s.status is None)
        return committed, unknown, len(self.submissions) - committed - unknown
