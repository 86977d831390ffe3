"""A text capture of the tables that can carry job data, taken before a test database goes.

One file per database under test-results/queue-tables/, one line per row (`table<TAB>json`),
written only when some row exists. The pgqueuer payload is stored as bytes: it is decoded
(JSON where it parses) so that a secret in it reads as plainly as anywhere else.
"""

from __future__ import annotations

import json
import time
from typing import Any

import psycopg
import pytest

from .artifacts import QUEUE_TABLES, current_test

# Static configuration tables (queue_settings, queue_event_types, payload_contracts) are left
# out: every clone has the same rows.
TABLES = (
    "pgqueuer",
    "pgqueuer_log",
    "jobs",
    "job_actions",
    "job_alerts",
    "job_alert_episodes",
    "effect_receipts",
    "effect_bindings",
    "queue_imports",
    "queue_import_dispositions",
    "queue_maintenance",
)


def _decoded(payload: bytes | None) -> Any:
    if payload is None:
        return None
    text = payload.decode("utf-8", errors="backslashreplace")
    try:
        return json.loads(text)
    except ValueError:
        return text


class _Cost:
    captures = 0
    seconds = 0.0


def capture(admin_dsn: str, dbname: str) -> None:
    """Write the job-carrying tables of the database `admin_dsn` reaches (a superuser's)."""
    started = time.perf_counter()
    try:
        _capture(admin_dsn, dbname)
    finally:
        _Cost.captures += 1
        _Cost.seconds += time.perf_counter() - started


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist's controller: add up what each worker spent."""
    cost = getattr(node, "workeroutput", {}).get("queue_table_captures")
    if cost:
        _Cost.captures += cost[0]
        _Cost.seconds += cost[1]


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["queue_table_captures"] = (_Cost.captures, _Cost.seconds)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _Cost.captures:
        terminalreporter.write_line(
            f"queue table captures: {_Cost.captures} in {_Cost.seconds:.1f}s"
        )


def _capture(admin_dsn: str, dbname: str) -> None:
    lines: list[str] = []
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        present = {
            row[0]
            for row in conn.execute(
                "SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace"
                " AND c.relkind IN ('r', 'p') AND c.relname = ANY(%s)",
                (list(TABLES),),
            )
        }
        # One round trip for every table (the connection is most of the cost already).
        selects = [
            "SELECT 'pgqueuer', to_jsonb(q) - 'payload', q.payload FROM pgqueuer q"
            if table == "pgqueuer"
            else f"SELECT '{table}', to_jsonb(t), NULL::bytea FROM public.{table} t"
            for table in TABLES
            if table in present
        ]
        rows = conn.execute(" UNION ALL ".join(selects)).fetchall() if selects else []
    for table, row, payload in sorted(rows, key=lambda r: TABLES.index(r[0])):
        if table == "pgqueuer":
            row["payload"] = _decoded(payload)
        lines.append(f"{table}\t{json.dumps(row, separators=(',', ':'), default=str)}")
    if lines:
        QUEUE_TABLES.mkdir(parents=True, exist_ok=True)
        (QUEUE_TABLES / f"{current_test()}--{dbname}.txt").write_text("\n".join(lines) + "\n")
