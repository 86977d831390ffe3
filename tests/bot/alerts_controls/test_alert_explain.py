"""What the alert controls answer, as plain text (no Discord involved): one sentence per
recovery outcome, and a Details diagnostic that is sanitized, bounded and says what needs
resolution."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import get_args
from uuid import UUID

from genji_bot.alerts.explain import MAX_TEXT, details_text, retry_sentence
from genji_sdk.inspection import ActionView, BindingView, JobDetails, ReceiptView
from genji_sdk.recovery import RecoveryOutcome, RecoveryResult

JOB = UUID("3f0e8a2c-1b7d-4c55-9a51-0d2f6c8e9b10")
AT = datetime(2026, 12, 1, 12, 30, tzinfo=UTC)


def _result(outcome: RecoveryOutcome, **fields: object) -> RecoveryResult:
    values: dict[str, object] = {
        "outcome": outcome,
        "job_id": JOB,
        "retry_generation": 3,
        "state": "held",
        "message": "api sentence",
        **fields,
    }
    return RecoveryResult(**values)  # type: ignore[arg-type]


def test_every_retry_outcome_gets_its_own_sentence() -> None:
    outcomes = get_args(RecoveryOutcome)
    sentences = {outcome: retry_sentence(_result(outcome)) for outcome in outcomes}
    assert len(set(sentences.values())) == len(outcomes)
    assert "accepted" in sentences["accepted"] and "generation 3" in sentences["accepted"]
    assert "generation 3" in sentences["stale_generation"]
    assert "resolve the uncertain send first" in sentences["reconciliation_required"]
    assert "inspection" in sentences["needs_inspection"]
    for refused in ("queued", "running", "succeeded", "discarded", "stale_generation"):
        assert sentences[refused].startswith("Nothing was changed"), refused
    # A lost answer asked again: the recorded outcome is what the operator needs to hear.
    again = retry_sentence(_result("duplicate", recorded_outcome="accepted"))
    assert "already handled" in again and "retry was accepted" in again
    stale_again = retry_sentence(_result("duplicate", recorded_outcome="stale_generation"))
    assert "already handled" in stale_again and "older generation" in stale_again


def test_details_are_sanitized_bounded_and_say_what_needs_resolution() -> None:
    secret_error = (
        "login postgresql://bot:hunter2@db/genji failed, token=abc123 <@&42> @everyone ```"
        + "x" * 5000
    )
    details = JobDetails(
        id=JOB,
        event_name="api.completion.verification",
        state="held",
        status="failed",
        retry_generation=2,
        handler_failures=6,
        failure_budget=6,
        attempts=9,
        error_code="UncertainEffect",
        error_msg=secret_error,
        event_key="completion:verification:7",
        entity_key="completion:7",
        created_at=AT,
        held_at=AT,
        retry_enabled=False,
        receipts=[
            ReceiptView(
                effect_key="xp:verification", completed=True, created_at=AT, completed_at=AT
            ),
            ReceiptView(
                effect_key="newsfeed:record", completed=False, created_at=AT, completed_at=None
            ),
        ],
        bindings=[
            BindingView(
                effect_key="card:completion",
                destination="channel:1000000000000000002",
                state="uncertain",
                channel_id=1000000000000000002,
                message_id=None,
                thread_id=None,
                updated_at=AT,
            ),
            BindingView(
                effect_key="notification:verification",
                destination="dm:5",
                state="completed",
                channel_id=None,
                message_id=10**18 + 5,
                thread_id=None,
                updated_at=AT,
            ),
        ],
        actions=[
            ActionView(
                id=n,
                action="retry",
                actor_id=141372217677053952,
                expected_generation=n - 1,
                outcome="accepted",
                reason=None,
                created_at=AT,
            )
            for n in range(1, 6)
        ],
    )
    text = details_text(details)
    assert len(text) <= MAX_TEXT
    for leaked in ("hunter2", "abc123", "@everyone", "<@&42>", "```", "x" * 400):
        assert leaked not in text, leaked
    assert "State: held (status failed), generation 2" in text
    assert "Handler failures: 6 (retried up to 6 times, then held); queue attempts: 9" in text
    assert "`UncertainEffect`" in text
    assert "1 of 2 completed; pending: `newsfeed:record`" in text
    assert "Discord sends: 1 completed, 1 uncertain" in text
    assert "`card:completion` to `channel:1000000000000000002`" in text
    assert "disabled until every uncertain send is resolved" in text
    # Only the last three actions.
    assert "at generation 1 by" not in text and "at generation 2 by" in text
    assert "at generation 4 by" in text


def test_a_finished_jobs_old_error_is_labelled_as_from_before_it_finished() -> None:
    def finished(state: str, status: str) -> str:
        return details_text(
            JobDetails(
                id=JOB,
                event_name="api.xp.grant",
                state=state,  # type: ignore[arg-type]
                status=status,  # type: ignore[arg-type]
                retry_generation=1,
                handler_failures=0,
                failure_budget=6,
                attempts=1,
                error_code="RuntimeError",
                error_msg="ledger write timed out",
                event_key=None,
                entity_key=None,
                created_at=AT,
                held_at=AT,
                retry_enabled=False,
                receipts=[],
                bindings=[],
                actions=[],
            )
        )

    for state, status, before in (
        ("succeeded", "succeeded", "it succeeded"),
        ("discarded", "failed", "it was discarded"),
    ):
        text = finished(state, status)
        assert f"State: {state}" in text
        assert "Last error: " not in text and "Held since" not in text
        assert f"Last error, from before {before}: `RuntimeError` ledger write timed out" in text
        assert f"Retry job: not available: {before}." in text
