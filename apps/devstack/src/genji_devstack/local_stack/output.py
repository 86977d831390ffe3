"""What `just up` prints once the stack is ready: one block to paste into a shell at the
repository root. Its `export` lines come first; every other line is a command that runs as
printed once they are in the shell, or a comment. No secret is in it: the API key and the owner's
password are in private files the block names."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

BEGIN = "--- the stack is up: paste these lines into a shell at the repository root ---"
END = "---"


@dataclass(frozen=True)
class Ready:
    stack_pid: int
    api_url: str
    key_file: Path
    database_url: str
    passfile: Path | None
    api_metrics: str
    bot_metrics: str
    standin_url: str | None
    pids: dict[str, int]


def block(ready: Ready) -> str:
    q = shlex.quote
    lines = [
        BEGIN,
        f"export URL={q(ready.api_url)}",
        f"export KEY_FILE={q(str(ready.key_file))}",
        f"export DATABASE_URL={q(ready.database_url)}",
    ]
    if ready.passfile is not None:
        lines.append(f"export PGPASSFILE={q(str(ready.passfile))}")
    lines += [
        'KEY=$(cat "$KEY_FILE")  # the local superuser API key, sent in the X-API-KEY header',
        'curl -s -o /dev/null -w "%{http_code}\\n" "$URL/schema/openapi.json"'
        "  # OpenAPI; in a browser: $URL/schema/swagger",
        f"curl -s {q(ready.api_metrics)} | head -n 5  # the API's metrics",
        f"curl -s {q(ready.bot_metrics)} | head -n 5  # the bot's metrics",
        "psql \"$DATABASE_URL\" -c 'SELECT action, event_key FROM jobs ORDER BY event_seq'",
        "uv run --frozen genji-jobs list --state held  # the operator CLI",
        "uv run --frozen python -m genji_api.queue.report  # queue health",
    ]
    if ready.standin_url is not None:
        lines += [
            "uv run --frozen python -m genji_devstack.discord_standin report --url "
            f"{q(ready.standin_url)}  # what the Discord stand-in holds",
            f"# local view of Discord in a browser: {ready.standin_url}/_standin/view",
        ]
    else:
        lines.append("# DISCORD_TOKEN is set: the bot talks to Discord itself")
    pids = ", ".join(f"{name} {pid}" for name, pid in ready.pids.items())
    lines += [
        f"# stop: Ctrl-C in the stack's terminal, or kill -INT {ready.stack_pid}; pids: {pids}",
        END,
    ]
    return "\n".join(lines)
