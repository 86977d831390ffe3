"""What the soak checks from durable state once the queue is quiet and held jobs are
recovered: each finding names the submission or job it is about and when it happened, so the
report can lay it beside the faults injected around that time."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import asyncpg
from genji_queue.job_inspection import job_list
from genji_queue.status import job_public_status
from genji_sdk import REGISTRY

from genji_devstack.soak.evidence import (
    Attribution,
    Binding,
    DiscordState,
    attribute,
    read_bindings,
    read_discord,
)
from genji_devstack.soak.faults import LOST_SEND_REPLY, Injection
from genji_devstack.soak.operator import ACTIVE_LIMIT, Recovery
from genji_devstack.soak.stack import BOT_USER_ID, SoakStack
from genji_devstack.soak.workload import Submission

LOST = "lost"
DUPLICATED = "duplicated"


@dataclass(frozen=True)
class Finding:
    kind: str
    """lost, duplicated, unsettled, coverage, idle-worker, hold-without-reason."""
    detail: str
    at: tuple[float, float] | None = None
    """The monotonic time span the finding belongs to, when known."""


@dataclass
class Results:
    findings: list[Finding] = field(default_factory=list)
    reached: dict[str, int] = field(default_factory=dict)
    """Jobs per entrypoint."""
    states: dict[str, int] = field(default_factory=dict)
    sends: int = 0
    """Messages Discord holds that belong to a bound send."""
    messages: int = 0
    """Every message of the bot's that Discord holds."""
    duplicate_sends_surfaced: int = 0
    unsettled_jobs: set[str] = field(default_factory=set)
    discord: DiscordState | None = None
    attribution: Attribution | None = None
    copies: dict[int, Binding] = field(default_factory=dict)
    """Messages no binding claims that repeat a bound send's message: id -> that binding."""
    lost_replies: tuple[int, int] | None = None
    """(settled without an operator, injected) lost replies."""
    lost_replies_unsettled: list[str] = field(default_factory=list)
    """The sends among them that needed an operator or were stored twice."""

    def add(self, kind: str, detail: str, at: tuple[float, float] | None = None) -> None:
        self.findings.append(Finding(kind, detail, at))

    def count(self, kind: str) -> int:
        return sum(1 for f in self.findings if f.kind == kind)


async def check_lost(conn: asyncpg.Connection, submissions: list[Submission], out: Results) -> None:
    """Every committed submission has each of its jobs."""
    rows = await conn.fetch(
        "SELECT request_id, array_agg(DISTINCT entrypoint) AS events FROM soak.job_requests "
        "WHERE request_id IS NOT NULL GROUP BY request_id"
    )
    found = {r["request_id"]: set(r["events"]) for r in rows}
    for submission in submissions:
        if not submission.committed:
            continue
        missing = submission.scenario.events - found.get(submission.request_id, set())
        if missing:
            out.add(
                LOST,
                f"{submission.request_id} ({submission.scenario.name}) answered "
                f"{submission.status} but has no {', '.join(sorted(missing))} job",
                (submission.started, submission.finished),
            )


async def check_coverage(conn: asyncpg.Connection, out: Results) -> None:
    rows = await conn.fetch("SELECT action, count(*) AS n FROM jobs GROUP BY action")
    out.reached = {r["action"]: r["n"] for r in rows}
    for name in REGISTRY.names():
        if name not in out.reached:
            out.add("coverage", f"no job of {name} was ever enqueued")


async def check_settled(conn: asyncpg.Connection, states: dict[str, int], out: Results) -> None:
    """Every job finished as succeeded: none still active, none discarded or failed."""
    out.states = states
    active = (await job_list(conn, None, None, ACTIVE_LIMIT)).jobs
    for job in active:
        out.unsettled_jobs.add(str(job.id))
        out.add("unsettled", f"job {job.id} ({job.event_name}) is {job.state} ({job.error_code})")
    seen = {job.id for job in active}
    for row in await conn.fetch("SELECT id, action FROM jobs ORDER BY event_seq"):
        if row["id"] in seen:
            continue
        status = await job_public_status(conn, row["id"])
        if status.status != "succeeded":
            out.unsettled_jobs.add(str(row["id"]))
            out.add("unsettled", f"job {row['id']} ({row['action']}) ended {status.status}")


async def check_intents(
    conn: asyncpg.Connection, submissions: list[Submission], out: Results
) -> None:
    """A submission's intended domain rows exist exactly once (committed ones at least once)."""
    for submission in submissions:
        for intent in submission.intents:
            where = " AND ".join(f"{column} = ${i}" for i, column in enumerate(intent.key, 1))
            count = await conn.fetchval(
                f"SELECT count(*) FROM {intent.table} WHERE {where}", *intent.key.values()
            )
            span = (submission.started, submission.finished)
            if count > 1:
                out.add(
                    DUPLICATED,
                    f"{submission.request_id}: {count} {intent.table} rows {intent.key}",
                    span,
                )
            elif count == 0 and submission.committed:
                out.add(LOST, f"{submission.request_id}: no {intent.table} row {intent.key}", span)


# Each query names what is repeated and, when its rows say so, when the repeats were written
# (first and last), so the report can lay the finding beside the faults around that time.
DUPLICATE_QUERIES = {
    "XP ledger total differs from its grants": """
        SELECT x.user_id::text AS what, NULL::timestamptz AS first, NULL::timestamptz AS last
        FROM lootbox.xp x
        LEFT JOIN (SELECT user_id, sum(amount) AS total FROM lootbox.xp_grants GROUP BY 1) g
          USING (user_id)
        WHERE x.amount <> coalesce(g.total, 0)""",
    "XP grant repeated": """
        SELECT user_id || ' ' || type || ' ' || coalesce(reason, '') AS what,
               min(granted_at) AS first, max(granted_at) AS last
        FROM lootbox.xp_grants GROUP BY user_id, type, reason, base_amount HAVING count(*) > 1""",
    "lootbox key granted twice": """
        SELECT grant_key AS what, min(earned_at) AS first, max(earned_at) AS last
        FROM lootbox.user_keys GROUP BY grant_key HAVING count(*) > 1""",
    "notification repeated": """
        SELECT user_id || ' ' || event_type || ' ' || title AS what,
               min(created_at) AS first, max(created_at) AS last
        FROM notifications.events
        GROUP BY user_id, event_type, title, body, metadata::text HAVING count(*) > 1""",
    "notification delivered twice": """
        SELECT event_id || ' ' || channel AS what,
               min(delivered_at) AS first, max(delivered_at) AS last
        FROM notifications.delivery_log
        WHERE status = 'delivered' GROUP BY event_id, channel HAVING count(*) > 1""",
    "newsfeed entry repeated": """
        SELECT event_type || ' ' || left(payload::text, 80) AS what,
               min("timestamp") AS first, max("timestamp") AS last
        FROM public.newsfeed GROUP BY event_type, payload HAVING count(*) > 1""",
}


def monotonic_span(first: datetime | None, last: datetime | None) -> tuple[float, float] | None:
    """The database's wall-clock times as this process's monotonic clock (same machine)."""
    if first is None or last is None:
        return None
    offset = time.time() - time.monotonic()
    return (first.timestamp() - offset, last.timestamp() - offset)


async def check_domain_duplicates(conn: asyncpg.Connection, out: Results) -> None:
    for name, query in DUPLICATE_QUERIES.items():
        for row in await conn.fetch(query):
            out.add(DUPLICATED, f"{name}: {row['what']}", monotonic_span(row["first"], row["last"]))


async def check_sends(
    conn: asyncpg.Connection, stack: SoakStack, recovery: Recovery, out: Results
) -> None:
    """What Discord holds (the stand-in), against the bindings: a nonce stored twice in one
    channel is a duplicate, and so is a message no binding claims that repeats a bound send's
    message in the same place, unless the operator surfaced it (resent that send)."""
    async with stack.control() as control:
        discord = await read_discord(control, BOT_USER_ID)
    bindings = await read_bindings(conn)
    attribution = attribute(bindings, discord)
    out.discord = discord
    out.attribution = attribution
    out.sends = len(attribution.sends)
    out.messages = len(discord.posted)
    for (channel_id, nonce), count in sorted(attribution.repeated_nonces.items()):
        out.add(DUPLICATED, f"nonce {nonce} stored x{count} in channel {channel_id}")
    bound: dict[tuple[str, str], Binding] = {}
    for posted in discord.posted:
        binding = attribution.sends.get(posted.id)
        if binding is not None:
            bound.setdefault((posted.destination, posted.payload), binding)
    for posted in discord.posted:
        if posted.id in attribution.sends:
            continue
        binding = bound.get((posted.destination, posted.payload))
        if binding is None:
            continue
        out.copies[posted.id] = binding
        if (binding.job_id, binding.effect) in recovery.resent:
            out.duplicate_sends_surfaced += 1
            continue
        when = posted.created - (time.time() - time.monotonic())
        out.add(
            DUPLICATED,
            f"send {binding.effect} of job {binding.job_id} to {binding.destination} "
            f"posted again as message {posted.id}",
            (when, when),
        )


def lost_reply_share(injections: list[Injection], recovery: Recovery, out: Results) -> None:
    """Of the job sends whose reply the stand-in lost (their messages were stored while a
    `lost-send-reply` fault was armed), how many settled without an operator: their job
    succeeded, the operator neither retried it nor resolved a send of it, and the send was
    stored once (its nonce once, no copy of its message). Messages that belong to no job (the
    alert supervisor's) are left out; a copy of a job's message counts against that send."""
    windows = [w for i in injections if i.fault == LOST_SEND_REPLY for w in i.windows]
    discord, attribution = out.discord, out.attribution
    if discord is None or attribution is None:
        return
    lost: dict[tuple[str, str, str], bool] = {}
    for posted in discord.posted:
        if not any(start < posted.created < end for start, end in windows):
            continue
        binding = attribution.sends.get(posted.id) or out.copies.get(posted.id)
        if binding is None:
            continue
        key = (binding.job_id, binding.effect, binding.destination)
        stored = discord.nonce_counts.get((posted.channel_id, posted.nonce or ""), 1)
        settled = (
            posted.id not in out.copies
            and stored == 1
            and binding.job_id not in recovery.touched
            and binding.job_id not in out.unsettled_jobs
        )
        lost[key] = lost.get(key, True) and settled
    for copy in out.copies.values():
        key = (copy.job_id, copy.effect, copy.destination)
        if key in lost:
            lost[key] = False
    out.lost_replies = (sum(lost.values()), len(lost))
    out.lost_replies_unsettled = sorted(
        f"{effect} of job {job_id} to {destination}"
        for (job_id, effect, destination), settled in lost.items()
        if not settled
    )


async def check_workers(conn: asyncpg.Connection, stack: SoakStack, out: Results) -> None:
    """Every service process still alive is a registered, beating worker."""
    assert stack.api is not None
    for child, owner in [(stack.api, "api"), *((bot, "bot") for bot in stack.bots)]:
        if child.alive() and not await stack.registered(conn, child, owner):
            out.add("idle-worker", f"{child.name} (pid {child.pid}) runs but consumes nothing")


def check_holds(recovery: Recovery, out: Results) -> None:
    if recovery.unnamed:
        out.add("hold-without-reason", f"{recovery.unnamed} held jobs had no error code")


def describe(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
