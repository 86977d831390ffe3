"""The two Sentry issues the worker raises itself, each grouped by a fixed fingerprint.

- A held job (terminal failure): one event per hold, grouped by (event name, error code), so
  every job failing the same way is one issue, and each event names its job: the public job
  UUID, the event name and the retry generation as tags, the sanitized error summary as extra.
- A sustained outage of a dependency: one event when it has lasted past
  `WorkerSettings.outage_alert_after`, grouped by the dependency (genji_worker.outages).

Without SENTRY_DSN the SDK has no client and both calls do nothing.
"""

from __future__ import annotations

from uuid import UUID

import sentry_sdk
from genji_queue.types import ErrorRecord

from genji_worker.errors import redact

HELD = "genji.job.held"
OUTAGE = "genji.dependency.outage"
SUMMARY_LIMIT = 300


def _summary(text: str) -> str:
    line = " ".join(redact(text).split())
    return line if len(line) <= SUMMARY_LIMIT else line[: SUMMARY_LIMIT - 1] + "…"


def report_held(
    *, job_id: UUID | None, event_name: str, generation: int, error: ErrorRecord
) -> None:
    code = error["exception_type"]
    with sentry_sdk.new_scope() as scope:
        scope.fingerprint = [HELD, event_name, code]
        scope.set_tag("job_uuid", str(job_id) if job_id is not None else "unknown")
        scope.set_tag("event_name", event_name)
        scope.set_tag("retry_generation", str(generation))
        scope.set_extra("error_summary", _summary(error["exception_message"]))
        sentry_sdk.capture_message(f"Job held: {event_name} ({code})", level="error")


def report_outage(dependency: str, lasted_seconds: float) -> None:
    with sentry_sdk.new_scope() as scope:
        scope.fingerprint = [OUTAGE, dependency]
        scope.set_tag("dependency", dependency)
        scope.set_extra("lasted_seconds", round(lasted_seconds))
        sentry_sdk.capture_message(f"Dependency outage: {dependency}", level="error")
