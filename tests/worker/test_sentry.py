"""Sentry reporting with the real SDK client and a transport that keeps envelopes in memory
(nothing reaches the network): the scrubber on every event, one grouped issue per held job and
per sustained outage, and nothing at all without SENTRY_DSN."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest
import sentry_sdk
from genji_queue.types import ErrorRecord
from genji_sdk import REGISTRY, JobContext
from genji_worker.outages import Outages
from genji_worker.sentry_reports import HELD, OUTAGE, report_held
from genji_worker.sentry_setup import init_sentry
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from tests.support.harness import eventually
from tests.support.queue_helpers import XP_EVENT, enqueue_xp
from tests.support.testdb import Connect, Database

DSN_KEY = "publickey0123"
DSN = f"https://{DSN_KEY}@sentry.invalid/42"
# Read by name, so the values are not in the source lines an event may quote.
SECRET = {
    name: f"{name}-s3cr3t"
    for name in ("local", "token", "query", "header", "ua", "cookie", "body", "extra", "nested")
}
SECRET |= {
    "crumb": "password=" + SECRET["token"] + "x",
    "email": "someone@example.org",
    "ip": "10.1.2.3",
}


class Captured(Transport):
    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[Envelope] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)

    def events(self) -> list[dict[str, Any]]:
        found = (envelope.get_event() for envelope in self.envelopes)
        return [dict(event) for event in found if event is not None]


@pytest.fixture
def sentry() -> Iterator[Captured]:
    transport = Captured()
    assert init_sentry("api", {"SENTRY_DSN": DSN}, transport=transport)
    try:
        yield transport
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)


def _raise_with_secrets(password: str) -> None:
    # `password` is a local variable the event must not carry.
    raise RuntimeError(
        f"login failed: postgresql://bot:{password}@db/genji token={SECRET['token']}"
    )


def test_the_scrubber_removes_headers_cookies_user_locals_and_credentials(
    sentry: Captured,
) -> None:
    with sentry_sdk.new_scope() as scope:
        scope.set_user({"id": 77, "email": SECRET["email"], "ip_address": SECRET["ip"]})
        scope.add_event_processor(
            lambda event, hint: {
                **event,
                "request": {
                    "method": "POST",
                    "url": f"https://api.example/api/v3/internal/jobs?key={SECRET['query']}",
                    "headers": {"X-API-KEY": SECRET["header"], "User-Agent": SECRET["ua"]},
                    "cookies": {"session": SECRET["cookie"]},
                    "data": {"payload": SECRET["body"]},
                    "query_string": f"key={SECRET['query']}",
                },
            }
        )
        scope.set_extra("api_key", SECRET["extra"])
        scope.set_extra("nested", {"Authorization": SECRET["nested"], "note": "kept-note"})
        scope.set_extra("dsn", DSN)
        sentry_sdk.add_breadcrumb(message=f"called with {SECRET['crumb']}")
        try:
            _raise_with_secrets(SECRET["local"])
        except RuntimeError as error:
            sentry_sdk.capture_exception(error)
    [event] = sentry.events()
    text = json.dumps(event)
    for secret in [*SECRET.values(), DSN_KEY]:
        assert secret not in text, secret
    assert event["request"] == {"method": "POST", "url": "https://api.example/api/v3/internal/jobs"}
    assert "user" not in event
    frames = event["exception"]["values"][0]["stacktrace"]["frames"]
    assert frames and all("vars" not in frame for frame in frames)
    assert event["extra"]["nested"] == {"note": "kept-note"}


def test_held_jobs_are_one_issue_per_event_and_error_code(sentry: Captured) -> None:
    first, second, other = (UUID(int=n) for n in (1, 2, 3))
    error: ErrorRecord = {"exception_type": "ValueError", "exception_message": "bad token=tok-7"}
    report_held(job_id=first, event_name=XP_EVENT, generation=0, error=error)
    report_held(job_id=second, event_name=XP_EVENT, generation=2, error=error)
    timeout: ErrorRecord = {"exception_type": "HandlerTimeout", "exception_message": "over 120s"}
    report_held(job_id=other, event_name=XP_EVENT, generation=0, error=timeout)
    events = sentry.events()
    assert [e["fingerprint"] for e in events] == [
        [HELD, XP_EVENT, "ValueError"],
        [HELD, XP_EVENT, "ValueError"],
        [HELD, XP_EVENT, "HandlerTimeout"],
    ]
    assert events[1]["tags"] == {
        "job_uuid": str(second),
        "event_name": XP_EVENT,
        "retry_generation": "2",
    }
    assert events[1]["extra"] == {"error_summary": "bad token=***"}


def test_an_outage_is_reported_once_when_it_lasts_past_the_threshold(sentry: Captured) -> None:
    now = [0.0]
    outages = Outages(
        WorkerSettings(outage_alert_after=timedelta(seconds=60)), clock=lambda: now[0]
    )
    for moment in (0.0, 10.0, 59.0):
        now[0] = moment
        outages.report("api", None)
    assert sentry.events() == []
    for moment in (60.0, 61.0, 600.0):
        now[0] = moment
        outages.report("api", None)
    [event] = sentry.events()
    assert event["fingerprint"] == [OUTAGE, "api"]
    assert event["extra"] == {"lasted_seconds": 60}
    outages.healthy()
    now[0] = 700.0
    outages.report("api", None)
    now[0] = 760.0
    outages.report("api", None)
    assert len(sentry.events()) == 2  # a new outage is a new report


def test_nothing_is_sent_without_a_dsn() -> None:
    transport = Captured()
    assert not init_sentry("bot", {"SENTRY_ENVIRONMENT": "prod"}, transport=transport)
    assert not sentry_sdk.get_client().is_active()
    report_held(
        job_id=None,
        event_name=XP_EVENT,
        generation=0,
        error={"exception_type": "ValueError", "exception_message": "x"},
    )
    sentry_sdk.capture_message("anything")
    assert transport.envelopes == []


async def _noop(payload: msgspec.Struct, context: JobContext) -> None:
    return None


@pytest.mark.queue
async def test_q17_a_job_held_by_the_worker_is_reported_once_with_its_uuid(
    db: Database, connect: Connect, sentry: Captured
) -> None:
    conn = await connect()

    async def broken(payload: msgspec.Struct, context: JobContext) -> None:
        raise ValueError("always broken")

    job = await enqueue_xp(conn, "xp:1")
    handlers = {spec.name: _noop for spec in REGISTRY.owned_by("bot")}
    handlers[XP_EVENT] = broken
    supervisor = QueueSupervisor(
        owner="bot",
        handlers=handlers,
        connect=lambda: asyncpg.connect(db.worker_dsn),
        settings=WorkerSettings(
            polling_fallback=timedelta(seconds=0.2),
            drain_timeout=timedelta(seconds=1),
            retry_delays=(timedelta(milliseconds=50),),
        ),
    )
    task = asyncio.create_task(supervisor.run())
    try:

        async def held() -> bool:
            return await conn.fetchval("SELECT status::text FROM pgqueuer") == "failed"

        await eventually(held, 15, "the job to be held")
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)
    held = [e for e in sentry.events() if e.get("fingerprint", [None])[0] == HELD]
    assert len(held) == 1  # the earlier retried failure was not an issue
    assert held[0]["tags"]["job_uuid"] == str(job.id)
    assert held[0]["fingerprint"] == [HELD, XP_EVENT, "ValueError"]
