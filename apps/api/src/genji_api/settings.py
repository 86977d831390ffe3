"""The API process's settings, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from uuid import UUID

from genji_sdk.recovery import DEFAULT_ALERT_RECIPIENT
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


def _number(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {raw!r}") from None


def _ids(environ: Mapping[str, str], name: str) -> frozenset[int] | None:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    try:
        ids = frozenset(int(part) for part in raw.split(",") if part.strip())
    except ValueError:
        raise SettingsError(f"{name} must be comma-separated Discord ids, not {raw!r}") from None
    if not ids:
        raise SettingsError(f"{name} names no id")
    return ids


def _id(environ: Mapping[str, str], name: str) -> int | None:
    ids = _ids(environ, name)
    if ids is None:
        return None
    if len(ids) != 1:
        raise SettingsError(f"{name} must be one id")
    return next(iter(ids))


def _sentry_template(environ: Mapping[str, str]) -> str | None:
    template = environ.get("SENTRY_ISSUE_URL_TEMPLATE") or None
    try:
        sentry_link(template, UUID(int=0))
    except ValueError as error:
        raise SettingsError(str(error)) from None
    return template


def _metrics(environ: Mapping[str, str]) -> MetricsSettings:
    try:
        return metrics_settings_from_env(environ)
    except ValueError as error:
        raise SettingsError(str(error)) from None


def settings_from_env(environ: Mapping[str, str] = os.environ) -> ApiSettings:
    url = environ.get("DATABASE_URL")
    if not url:
        raise SettingsError("DATABASE_URL must name the API's database (the owner login)")
    return ApiSettings(
        database_url=url,
        ocr_url=environ.get("OCR_URL", ApiSettings.ocr_url),
        ocr_timeout_seconds=_number(
            environ, "OCR_TIMEOUT_SECONDS", ApiSettings.ocr_timeout_seconds
        ),
        bot_user_id=int(_number(environ, "BOT_USER_ID", 0)),
        pool_max_size=int(_number(environ, "API_POOL_MAX_SIZE", ApiSettings.pool_max_size)),
        run_worker=environ.get("GENJI_API_WORKER", "1") not in ("0", "false", "no"),
        outbox_interval_seconds=_number(
            environ, "TOURNAMENT_OUTBOX_INTERVAL", ApiSettings.outbox_interval_seconds
        ),
        log_retention_days=_number(
            environ, "QUEUE_LOG_RETENTION_DAYS", ApiSettings.log_retention_days
        ),
        retention_check_seconds=_number(
            environ, "QUEUE_RETENTION_CHECK_SECONDS", ApiSettings.retention_check_seconds
        ),
        queue_operator_ids=_ids(environ, "QUEUE_OPERATOR_IDS") or ApiSettings.queue_operator_ids,
        discord_guild_id=_id(environ, "DISCORD_GUILD_ID"),
        job_alerts_channel_id=_id(environ, "JOB_ALERTS_CHANNEL_ID"),
        sentry_issue_url_template=_sentry_template(environ),
        metrics=_metrics(environ),
    )
