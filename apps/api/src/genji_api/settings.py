"""The API process's settings, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from uuid import UUID

from genji_sdk.recovery import DEFAULT_ALERT_RECIPIENT
from genji_worker.env_table import Refused, Variable, flag, read_table
from genji_worker.settings import MetricsSettings, metrics_settings_from_env

from genji_api.alerts.sentry_link import sentry_link


class SettingsError(ValueError):
    """A setting is missing or malformed."""


@dataclass(frozen=True)
class ApiSettings:
    database_url: str
    ocr_url: str = "http://127.0.0.1:8700"
    ocr_timeout_seconds: float = 15.0
    bot_user_id: int = 0
    """The bot's Discord id, recorded as the verifier of automatic verdicts."""
    pool_min_size: int = 1
    pool_max_size: int = 10
    request_max_body_bytes: int = 1_000_000
    transaction_attempts: int = 3
    """How many times a service transaction runs when it loses a serialization or deadlock race."""
    run_worker: bool = False
    """Run the API-owned queue entrypoints inside this process (the production layout)."""
    outbox_interval_seconds: float = 10.0
    log_retention_days: float = 30.0
    """Finished jobs keep their detailed queue logs this long (QUEUE_LOG_RETENTION_DAYS)."""
    retention_check_seconds: float = 300.0
    """How often the API worker checks whether the daily log pruning is due
    (QUEUE_RETENTION_CHECK_SECONDS)."""
    queue_operator_ids: frozenset[int] = frozenset({DEFAULT_ALERT_RECIPIENT})
    """Discord users who may retry, discard and resolve jobs (QUEUE_OPERATOR_IDS)."""
    discord_guild_id: int | None = None
    """The guild whose alert buttons may request recovery (DISCORD_GUILD_ID)."""
    job_alerts_channel_id: int | None = None
    """The channel of the operator alert cards (JOB_ALERTS_CHANNEL_ID)."""
    sentry_issue_url_template: str | None = None
    """The alert cards' Sentry link, `{job_uuid}` replaced by the job's UUID
    (SENTRY_ISSUE_URL_TEMPLATE, genji_api.alerts.sentry_link); no link when unset."""
    metrics: MetricsSettings = field(default_factory=MetricsSettings)
    """The /metrics endpoint (GENJI_METRICS_PORT, GENJI_METRICS_ADDR,
    GENJI_METRICS_REFRESH_SECONDS; genji_api.metrics); off unless a port is set."""


def _ids(raw: str) -> frozenset[int]:
    ids = frozenset(int(part) for part in raw.split(",") if part.strip())
    if not ids:
        raise Refused("names no id")
    return ids


def _id(raw: str) -> int:
    ids = _ids(raw)
    if len(ids) != 1:
        raise Refused("must be one id")
    return next(iter(ids))


def _sentry_template(raw: str) -> str:
    try:
        sentry_link(raw, UUID(int=0))
    except ValueError as error:
        raise Refused(f"is not usable: {error}") from None
    return raw


NUMBER = "a number"
DISCORD_IDS = "comma-separated Discord ids"
# DATABASE_URL (required) is read on its own; the metrics variables are genji_worker's table.
TABLE = (
    Variable("OCR_URL", "ocr_url", str, "a URL", "where the OCR service is"),
    Variable("OCR_TIMEOUT_SECONDS", "ocr_timeout_seconds", float, NUMBER, "OCR call deadline"),
    Variable("BOT_USER_ID", "bot_user_id", lambda raw: int(float(raw)), NUMBER, "the bot's id"),
    Variable("API_POOL_MAX_SIZE", "pool_max_size", lambda raw: int(float(raw)), NUMBER, "pool"),
    Variable("GENJI_API_WORKER", "run_worker", flag, "0 or 1", "run the API worker here"),
    Variable("TOURNAMENT_OUTBOX_INTERVAL", "outbox_interval_seconds", float, NUMBER, "outbox poll"),
    Variable("QUEUE_LOG_RETENTION_DAYS", "log_retention_days", float, NUMBER, "log retention"),
    Variable(
        "QUEUE_RETENTION_CHECK_SECONDS", "retention_check_seconds", float, NUMBER, "prune check"
    ),
    Variable("QUEUE_OPERATOR_IDS", "queue_operator_ids", _ids, DISCORD_IDS, "operators"),
    Variable("DISCORD_GUILD_ID", "discord_guild_id", _id, DISCORD_IDS, "the alerts' guild"),
    Variable("JOB_ALERTS_CHANNEL_ID", "job_alerts_channel_id", _id, DISCORD_IDS, "alert cards"),
    Variable(
        "SENTRY_ISSUE_URL_TEMPLATE",
        "sentry_issue_url_template",
        _sentry_template,
        "a URL template",
        "the alert cards' Sentry link",
    ),
)


def settings_from_env(environ: Mapping[str, str] = os.environ) -> ApiSettings:
    url = environ.get("DATABASE_URL")
    if not url:
        raise SettingsError("DATABASE_URL must name the API's database (the owner login)")
    try:
        values = read_table(TABLE, environ)
        metrics = metrics_settings_from_env(environ)
    except ValueError as error:
        raise SettingsError(str(error)) from None
    # Unset, the process runs its worker (the production layout); ApiSettings() in a test not.
    values.setdefault("run_worker", True)
    return ApiSettings(database_url=url, metrics=metrics, **values)
