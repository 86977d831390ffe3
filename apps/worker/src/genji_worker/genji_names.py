"""Every GENJI_* environment variable the project knows, each said once. A process refuses any
other GENJI_* name at start-up (genji_worker.env_table.unknown_setting); the processes'
own tables and docs/queue-operations.md (Settings) say what each one does."""

from __future__ import annotations

from collections.abc import Mapping

from genji_worker.env_table import unknown_setting
from genji_worker.settings import DATABASE_OWNED, QUEUE_TABLE

QUEUE = frozenset(variable.name for variable in QUEUE_TABLE)

GENJI_NAMES: frozenset[str] = QUEUE | {
    # the processes
    "GENJI_API_WORKER",
    "GENJI_API_URL",
    "GENJI_API_KEY",
    "GENJI_API_TIMEOUT",
    "GENJI_LOG_FORMAT",
    "GENJI_METRICS_PORT",
    "GENJI_METRICS_ADDR",
    "GENJI_METRICS_REFRESH_SECONDS",
    "GENJI_DB_DIR",
    "GENJI_OPERATOR_ID",
    # development and tests
    "GENJI_FAULT_POINT",
    "GENJI_RECORDER_DIR",
    "GENJI_TALLY_DSN",
    "GENJI_STALE_HEARTBEAT",
    "GENJI_TEST_RESULTS",
    "GENJI_TEST_SECRETS_DIR",
    "GENJI_TEST_ALONE_DIR",
    # the deployment's compose files (they may reach a container's environment)
    "GENJI_IMAGE",
    "GENJI_IMAGE_TAG",
    "GENJI_ENV_FILE",
    "GENJI_INTERNAL_NETWORK",
    "GENJI_OWNER_PASSWORD",
}


def unknown_genji_setting(environ: Mapping[str, str]) -> str | None:
    """Why a GENJI_* name in `environ` is refused at start-up, or None."""
    return unknown_setting(environ, GENJI_NAMES, retired=DATABASE_OWNED)
