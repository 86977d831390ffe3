"""A discard reason or an idempotency key of nothing but whitespace is blank, whatever kind of
whitespace: tabs, line breaks and Unicode spaces count as much as the ASCII space
(`text_is_blank` in sql/text_blank.sql, shared by every such check)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from uuid import UUID

import asyncpg
import pytest
from genji_queue.errors import InvalidJobRequestError
from genji_queue.recovery_discard import recovery_discard
from genji_queue.recovery_resolve_effect import recovery_resolve_effect
from genji_queue.recovery_retry import recovery_retry
from genji_sdk.recovery import (
    DiscardRequest,
    OperatorContext,
    RecoveryResult,
    ResolveEffectRequest,
)

from tests.support.held_jobs import OPERATOR, UNCERTAIN, held_job, job_row, retry_request
from tests.support.queue_helpers import queue_row
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

# Every character the shared definition counts as whitespace, each one alone a blank text.
WHITESPACE = (
    "\t\n\v\f\r \u0085\u00a0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200C))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
BLANK = {
    "empty": "",
    "tab-newline": "\t\n",
    "nbsp-emspace": "\u00a0\u2003",
    "mixed": " \r\n\u3000\ufeff\u200b\t",
}
TEXT_WITH_INNER_SPACES = "payload\u00a0is bad\tfor good"


def _discard_request(reason: str, key: str = "discard-1") -> DiscardRequest:
    return DiscardRequest(
        expected_generation=0,
        idempotency_key=key,
        actor_id=OPERATOR,
        reason=reason,
        context=OperatorContext(source="cli"),
    )


def _resolve_request(key: str) -> ResolveEffectRequest:
    return ResolveEffectRequest(
        effect_key=UNCERTAIN[0],
        destination=UNCERTAIN[1],
        decision="resend",
        expected_generation=0,
        idempotency_key=key,
        actor_id=OPERATOR,
        context=OperatorContext(source="cli"),
    )


async def _still_held(conn: asyncpg.Connection, job_id: UUID) -> None:
    row = await queue_row(conn, job_id)
    assert row is not None and row["status"] == "failed"
    assert (await job_row(conn, job_id))["retry_generation"] == 0
    assert await conn.fetchval("SELECT count(*) FROM job_actions") == 0


async def test_text_is_blank_counts_every_kind_of_whitespace(connect: Connect) -> None:
    conn = await connect()
    verdicts = await conn.fetch(
        "SELECT c, text_is_blank(c) AS blank FROM unnest($1::text[]) AS c",
        [*WHITESPACE, WHITESPACE, None, "a", " a ", "\u00a0x\u2003", "\u200c", "_"],
    )
    blank = {r["c"] for r in verdicts if r["blank"]}
    assert blank == {*WHITESPACE, WHITESPACE, None}


@pytest.mark.parametrize("reason", BLANK.values(), ids=BLANK.keys())
async def test_a_blank_discard_reason_is_refused_and_nothing_is_discarded(
    connect: Connect, reason: str
) -> None:
    conn = await connect()
    job_id = await held_job(conn, uncertain=True)
    with pytest.raises(InvalidJobRequestError, match="reason"):
        await recovery_discard(conn, job_id, _discard_request(reason))
    await _still_held(conn, job_id)


async def test_a_discard_reason_with_text_between_spaces_is_accepted(connect: Connect) -> None:
    conn = await connect()
    job_id = await held_job(conn)
    result = await recovery_discard(conn, job_id, _discard_request(TEXT_WITH_INNER_SPACES))
    assert (result.outcome, result.state) == ("accepted", "discarded")
    reason = await conn.fetchval("SELECT reason FROM job_actions WHERE job_id = $1", job_id)
    assert reason == TEXT_WITH_INNER_SPACES


async def _retry(conn: asyncpg.Connection, job_id: UUID, key: str) -> RecoveryResult:
    return await recovery_retry(conn, job_id, retry_request(key))


async def _discard(conn: asyncpg.Connection, job_id: UUID, key: str) -> RecoveryResult:
    return await recovery_discard(conn, job_id, _discard_request("bad payload", key))


async def _resolve(conn: asyncpg.Connection, job_id: UUID, key: str) -> RecoveryResult:
    return await recovery_resolve_effect(conn, job_id, _resolve_request(key))


Action = Callable[[asyncpg.Connection, UUID, str], Awaitable[RecoveryResult]]
ACTIONS: dict[str, Action] = {"retry": _retry, "discard": _discard, "resolve": _resolve}


@pytest.mark.parametrize("key", BLANK.values(), ids=BLANK.keys())
@pytest.mark.parametrize("action", ACTIONS.values(), ids=ACTIONS.keys())
async def test_a_blank_recovery_idempotency_key_is_refused_and_nothing_is_recorded(
    connect: Connect, action: Action, key: str
) -> None:
    conn = await connect()
    job_id = await held_job(conn, uncertain=True)
    with pytest.raises(InvalidJobRequestError, match="idempotency key"):
        await action(conn, job_id, key)
    await _still_held(conn, job_id)


@pytest.mark.parametrize("action", ACTIONS.values(), ids=ACTIONS.keys())
async def test_a_recovery_idempotency_key_with_text_between_spaces_is_accepted(
    connect: Connect, action: Action
) -> None:
    conn = await connect()
    job_id = await held_job(conn, uncertain=action is _resolve)
    key = " alert\u00a0card 42\t"
    result = await action(conn, job_id, key)
    assert result.outcome == "accepted"
    recorded = await conn.fetchval(
        "SELECT idempotency_key FROM job_actions WHERE job_id = $1", job_id
    )
    assert recorded == key
