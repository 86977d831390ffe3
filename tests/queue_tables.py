"""A text capture of the tables that can carry job data, taken before a test database goes.

One file per database under test-results/queue-tables/, one line per row (`table<TAB>json`),
written only when some row exists. The pgqueuer payload is stored as bytes: it is decoded
(JSON where it parses) so that a secret in it reads as plainly as anywhere else.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg
from artifacts import QUEUE_TABLES, current_test

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


def capture(admin_dsn: str, dbname: str) -> None:
    """Write the job-carrying tables of the database `admin_dsn` reaches (a superuser's)."""
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
        for table in (t for t in TABLES if t in present):
            if table == "pgqueuer":
                query = "SELECT to_jsonb(q) - 'payload', q.payload FROM pgqueuer q ORDER BY q.id"
            else:
                query = f"SELECT to_jsonb(t), NULL::bytea FROM public.{table} t"
            for row, payload in conn.execute(query):
                if table == "pgqueuer":
                    row["payload"] = _decoded(payload)
                lines.append(f"{table}\t{json.dumps(row, separators=(',', ':'), default=str)}")
    if lines:
        QUEUE_TABLES.mkdir(parents=True, exist_ok=True)
        (QUEUE_TABLES / f"{current_test()}--{dbname}.txt").write_text("\n".join(lines) + "\n")
