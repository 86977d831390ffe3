"""One log format for every process: `time level logger message` lines on stderr, or one JSON
object per line (time, level, logger, message, and exception when there is one) when
GENJI_LOG_FORMAT=json.

Libraries that would log a line per routine request (httpx, httpcore) and PGQueuer's chatter log
at WARNING and above only; uvicorn's loggers carry no handler of their own, so their lines reach
the one handler on the root logger and share its format.
"""

from __future__ import annotations

import json
import logging
import logging.config
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Literal

LOG_FORMAT_VARIABLE = "GENJI_LOG_FORMAT"
LogFormat = Literal["text", "json"]
FORMATS: tuple[LogFormat, ...] = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
QUIET_LOGGERS = ("pgqueuer", "httpx", "httpcore")
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


class LogFormatError(ValueError):
    """GENJI_LOG_FORMAT names no known format: a bad setting, refused at start-up."""


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_format(environ: Mapping[str, str] = os.environ) -> LogFormat:
    value = environ.get(LOG_FORMAT_VARIABLE, "").strip().lower() or "text"
    for known in FORMATS:
        if value == known:
            return known
    raise LogFormatError(
        f"{LOG_FORMAT_VARIABLE}={environ[LOG_FORMAT_VARIABLE]!r} is not a log format; "
        f"use one of: {', '.join(FORMATS)}"
    )


def logging_config(kind: LogFormat, level: int = logging.INFO) -> dict[str, Any]:
    """The `logging.config.dictConfig` schema of the one format."""
    formatter: dict[str, Any] = {"()": JsonLines} if kind == "json" else {"format": TEXT_FORMAT}
    loggers: dict[str, Any] = {name: {"level": "WARNING"} for name in QUIET_LOGGERS}
    for name in UVICORN_LOGGERS:
        loggers[name] = {"handlers": [], "propagate": True, "level": "INFO"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"genji": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "genji",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": logging.getLevelName(level)},
        "loggers": loggers,
    }


def setup_logging(environ: Mapping[str, str] = os.environ) -> LogFormat:
    """Configure the process's logging once, at start-up; LogFormatError on a bad setting."""
    kind = log_format(environ)
    logging.config.dictConfig(logging_config(kind))
    return kind
