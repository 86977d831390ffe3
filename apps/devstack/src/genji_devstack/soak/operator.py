"""The operator's part of the soak, after the faults: wait until the queue is quiet, then
recover every held job through the API's recovery service (as the configured operator, from
the CLI context) until it succeeds. An uncertain send is settled by what Discord holds (the
stand-in's messages): `located` with the ids of the message carrying the send's nonce (or the
one unclaimed thread of a new forum thread), `resend` when Discord holds none. A job held as
`RefusedEffect` (Discord answered 403) is retried once the operator has allowed every channel
the stand-in still refuses."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import asyncpg
from genji_api.database import Database, create_pool
from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.recovery.service import resolve_effect, retry_job
from genji_api.settings import ApiSettings, settings_from_env
from genji_queue.job_inspection import job_list
from genji_sdk.inspection import JobListItem
from genji_sdk.recovery import OperatorContext, ResolveEffectRequest, RetryRequest

from genji_devstack.soak.evidence import (
    Binding,
    DiscordState,
    matches,
    read_bindings,
    read_discord,
    unclaimed_thread,
)
from genji_devstack.soak.stack import BOT_USER_ID, CONNECTION_ERRORS, OPERATOR_ID, SoakStack

CLI = OperatorContext(source="cli")
REFUSED = "RefusedEffect"
STABLE_SECONDS = 8.0
PROGRESS_SECONDS = 10.0
SETTLED = frozenset({"finished", "held"})


@dataclass
class Recovery:
    held: Counter[str] = field(default_factory=Counter)
    """Hold reasons (error codes) of every held job met, one per hold."""
    unnamed: int = 0
    """Holds without a reason."""
    located: set[tuple[str, str]] = field(default_factory=set)
    resent: set[tuple[str, str]] = field(default_factory=set)
    """(job id, effect key) of sends settled by the operator."""
    allowed: set[int] = field(default_factory=set)
    """Channels the operator allowed at the stand-in before retrying refused jobs."""
    touched: set[str] = field(default_factory=set)
    """Jobs the operator retried or resolved a send of."""
    retries: int = 0
    rounds: int = 0


ACTIVE_LIMIT = 500
"""The most jobs job_list returns at once (more active than this only reads as busy)."""


async def job_states(conn: asyncpg.Connection) -> dict[str, int]:
    """Active jobs by state (pending, retrying, running, held), and the rest as finished."""
    active = (await job_list(conn, None, None, ACTIVE_LIMIT)).jobs
    states: Counter[str] = Counter(str(job.state) for job in active)
    total: int = await conn.fetchval("SELECT count(*) FROM jobs")
    states["finished"] = total - len(active)
    return {state: n for state, n in states.items() if n}


async def until_quiet(stack: SoakStack, deadline: float) -> dict[str, int]:
    """Until no job is pending, retrying or running, or until nothing but held jobs (and jobs
    waiting behind them) is left and nothing has moved for a while; returns the states (the
    last seen when the deadline passed)."""
    end = time.monotonic() + deadline
    states: dict[str, int] = {}
    last: tuple[tuple[str, int], ...] = ()
    since = time.monotonic()
    shown = 0.0
    while time.monotonic() < end:
        stack.restart_dead()
        try:
            conn = await stack.connect()
        except CONNECTION_ERRORS:
            await asyncio.sleep(0.5)
            continue
        try:
            states = await job_states(conn)
            ready = await conn.fetchval(
                "SELECT count(*) FROM pgqueuer WHERE status = 'picked' "
                "OR (status = 'queued' AND execute_after <= now())"
            )
        finally:
            await conn.close()
        if ready == 0 and set(states) <= SETTLED:
            return states
        now = time.monotonic()
        snapshot = tuple(sorted(states.items()))
        if snapshot != last:
            last, since = snapshot, now
        elif states.get("held") and not states.get("running") and now - since > STABLE_SECONDS:
            return states
        if now - shown > PROGRESS_SECONDS:
            shown = now
            print(f"[soak settle] {dict(snapshot)}", flush=True)
        await asyncio.sleep(0.5)
    return states


def _sent(
    binding: Binding, discord: DiscordState, bindings: list[Binding]
) -> dict[str, int] | None:
    """The ids of the message Discord holds for this send, if it holds exactly one."""
    found = matches(binding, discord)
    if len(found) == 1:
        return {"channel_id": found[0].channel_id, "message_id": found[0].id}
    if not found and binding.destination.startswith("forum:"):
        try:
            starter = unclaimed_thread(binding, discord, bindings)
        except LookupError:
            return None
        return {
            "channel_id": starter.channel_id,
            "message_id": starter.id,
            "thread_id": starter.channel_id,
        }
    return None


async def recover_held(stack: SoakStack, recovery: Recovery, deadline: float) -> dict[str, int]:
    """Recover held jobs, round after round, until none is held (or the deadline)."""
    settings = settings_from_env(
        {"DATABASE_URL": stack.dsn, "QUEUE_OPERATOR_IDS": str(OPERATOR_ID)}
    )
    pool = await create_pool(stack.dsn, max_size=2)
    database = Database(pool)
    end = time.monotonic() + deadline
    try:
        states = await until_quiet(stack, max(1.0, end - time.monotonic()))
        while states.get("held") and time.monotonic() < end:
            recovery.rounds += 1
            async with pool.acquire() as conn, stack.control() as control:
                held = (await job_list(conn, "held", None, ACTIVE_LIMIT)).jobs
                discord = await read_discord(control, BOT_USER_ID)
                bindings = await read_bindings(conn)
                if any(job.error_code == REFUSED for job in held):
                    # The permission is fixed first: the retry must find the channel writable.
                    for channel_id in discord.denied:
                        await control.allow_channel(channel_id)
                        recovery.allowed.add(channel_id)
                for job in held:
                    recovery.held[job.error_code or "(none)"] += 1
                    recovery.unnamed += job.error_code is None
                    recovery.touched.add(str(job.id))
                    uncertain = [
                        b for b in bindings if b.job_id == str(job.id) and b.state == "uncertain"
                    ]
                    try:
                        for binding in uncertain:
                            await _resolve(
                                database, settings, recovery, job, binding, discord, bindings
                            )
                        await retry_job(
                            database,
                            settings,
                            job.id,
                            RetryRequest(
                                expected_generation=job.retry_generation,
                                idempotency_key=f"soak-retry-{uuid.uuid4()}",
                                actor_id=OPERATOR_ID,
                                context=CLI,
                            ),
                        )
                    except (BadRequestError, ConflictError, NotFoundError) as error:
                        # The job moved on since it was read; the next round sees it again.
                        print(f"[soak] recovery of {job.id} refused: {error}", flush=True)
                        continue
                    recovery.retries += 1
            states = await until_quiet(stack, max(1.0, end - time.monotonic()))
        return states
    finally:
        await pool.close()


async def _resolve(
    database: Database,
    settings: ApiSettings,
    recovery: Recovery,
    job: JobListItem,
    binding: Binding,
    discord: DiscordState,
    bindings: list[Binding],
) -> None:
    job_id, effect, destination = str(job.id), binding.effect, binding.destination
    found = _sent(binding, discord, bindings)
    request = ResolveEffectRequest(
        effect_key=effect,
        destination=destination,
        decision="located" if found else "resend",
        expected_generation=job.retry_generation,
        idempotency_key=f"soak-resolve-{uuid.uuid4()}",
        actor_id=OPERATOR_ID,
        context=CLI,
        reason="settled by the soak from the messages Discord holds",
        **(found or {}),
    )
    await resolve_effect(database, settings, job.id, request)
    (recovery.located if found else recovery.resent).add((job_id, effect))
