"""Litestar's logging: through the process's one handler and format (genji_worker.log_setup),
never a root handler or format of its own."""

from __future__ import annotations

from litestar.logging.config import LoggingConfig

_UNUSED = {"class": "logging.NullHandler"}


def app_logging() -> LoggingConfig:
    return LoggingConfig(
        configure_root_logger=False,
        # Litestar adds these two when absent; nothing logs to them.
        handlers={"console": dict(_UNUSED), "queue_listener": dict(_UNUSED)},
        loggers={"litestar": {"level": "INFO", "handlers": [], "propagate": True}},
    )
