"""A client that went away (killed, timed out, or whose reply the stand-in dropped on purpose) is
routine here: aiohttp's error line with its traceback becomes one DEBUG line without one."""

from __future__ import annotations

import logging

# aiohttp's ClientConnectionResetError is a ConnectionResetError.
GONE = (ConnectionResetError, BrokenPipeError)
AIOHTTP_LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.websocket")

log = logging.getLogger("genji.discord_standin")


class GoneClientsAtDebug(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, GONE):
            return True
        log.debug("client went away: %s: %s", type(error).__name__, error)
        return False


_FILTER = GoneClientsAtDebug()


def quiet_gone_clients() -> None:
    """Install the filter on aiohttp's server loggers (idempotent)."""
    for name in AIOHTTP_LOGGERS:
        logging.getLogger(name).addFilter(_FILTER)
