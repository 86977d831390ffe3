"""Uvicorn's access lines for routine polls (the alert feed the bot polls every few seconds,
health checks, metrics scrapes) at DEBUG; every other request keeps its INFO line."""

from __future__ import annotations

import logging

ACCESS_LOGGER = "uvicorn.access"
ROUTINE_GETS = frozenset({"/api/v3/internal/alerts", "/healthcheck", "/metrics"})


def routine(method: object, path: object) -> bool:
    if method not in ("GET", "HEAD") or not isinstance(path, str):
        return False
    return path.split("?", 1)[0].rstrip("/") in ROUTINE_GETS


class RoutinePollsAtDebug(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn's access line: (client, method, path with query, HTTP version, status).
        if not isinstance(args, tuple) or len(args) != 5 or not routine(args[1], args[2]):
            return True
        if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return False
        record.levelno = logging.DEBUG
        record.levelname = logging.getLevelName(logging.DEBUG)
        return True


_FILTER = RoutinePollsAtDebug()


def quiet_routine_polls() -> None:
    """Install the filter on uvicorn's access logger (idempotent)."""
    logging.getLogger(ACCESS_LOGGER).addFilter(_FILTER)
