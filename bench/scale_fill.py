"""History as the running system leaves it, written set-based as the owner for scale.py.

fill_history(conn, n) adds DUE jobs whose queue logs are just past the 30-day retention (the
work of one pruning batch, the same in every database) and `n` other finished jobs: half older
than the retention, already pruned (summary on public.jobs, no logs), half within it (logs
kept). One job in DISCARD_EVERY was held and discarded by an operator, the others succeeded.
Each finished job has the rows the real paths write: its public.jobs identity (finished_at
set as completion and discard set it), the queue log rows (picked, then successful, or failed
and deleted: enqueue writes none), one effect receipt, one Discord binding every BINDING_EVERY
jobs, the operator's job_actions row of a discard, and a dashboard statistics row every
STATS_EVERY logged jobs. Entity keys cycle over ENTITIES users, so every user has about
n / ENTITIES earlier jobs.
"""

from __future__ import annotations

import json

import asyncpg
from genji_queue.enqueue import enqueue_job_raw

DUE = 1000
ENTITIES = 1000
DISCARD_EVERY = 20
BINDING_EVERY = 4
STATS_EVERY = 10
EVENTS = ("api.xp.grant", "api.newsfeed.create", "api.notification.delivery")
HISTORY_KEY = "hist:"

# One row per job: i runs from the oldest pruned job through the due ones to the newest.
# kind: 'pruned' (older than retention, summarized), 'due' (older, logs kept until the next
# run), 'kept' (within retention).
SPEC_SQL = """
CREATE TEMP TABLE fill_spec ON COMMIT DROP AS
WITH bases AS (
    SELECT nextval('pgqueuer_id_seq') AS queue_base, nextval('job_event_seq') AS seq_base
), numbered AS (
    SELECT i,
           CASE WHEN i <= $2 THEN 'pruned' WHEN i <= $2 + $3 THEN 'due' ELSE 'kept' END AS kind
    FROM generate_series(1, $1::bigint) AS g(i)
)
SELECT n.i, n.kind, gen_random_uuid() AS id, b.queue_base + n.i AS queue_id,
       b.seq_base + n.i AS event_seq, (n.i % $4 = 0) AS discarded,
       ($5::text[])[1 + n.i % cardinality($5::text[])] AS action,
       'user:' || (n.i % $6) AS entity_key,
       now() - CASE n.kind
           WHEN 'pruned' THEN interval '30 days 2 hours'
                              + interval '30 days' * ($2 - n.i + 1) / greatest($2, 1)
           WHEN 'due' THEN interval '30 days 1 hour' + interval '1 hour' * ($2 + $3 - n.i) / $3
           ELSE interval '29 days' * ($1 - n.i + 1) / greatest($1 - $2 - $3, 1)
       END AS created
FROM numbered n CROSS JOIN bases b
"""
SEQUENCES_SQL = """
SELECT setval('pgqueuer_id_seq', (SELECT max(queue_id) FROM fill_spec)),
       setval('job_event_seq', (SELECT max(event_seq) FROM fill_spec))
"""
JOBS_SQL = """
INSERT INTO public.jobs (id, action, status, queue_job_id, event_key, payload_hash,
                         schema_version, entity_key, event_seq, created_at, error_code,
                         error_msg, handler_failures, held_at, finished_at, summarized_at)
SELECT s.id, s.action,
       CASE WHEN s.kind <> 'pruned' THEN 'queued'
            WHEN s.discarded THEN 'failed' ELSE 'succeeded' END::job_status,
       s.queue_id, $1 || s.i, md5(s.i::text) || md5(s.action), 1, s.entity_key, s.event_seq,
       s.created,
       CASE WHEN s.discarded THEN 'Discarded' END,
       CASE WHEN s.discarded THEN 'discarded by operator 1: duplicate (held as ApiError: 503)' END,
       CASE WHEN s.discarded THEN 6 ELSE 0 END,
       CASE WHEN s.discarded THEN s.created + interval '2 seconds' END,
       s.created + CASE WHEN s.kind = 'pruned' OR s.discarded THEN interval '3 seconds'
                        ELSE interval '2 seconds' END,
       CASE WHEN s.kind = 'pruned' THEN s.created + interval '31 days' END
FROM fill_spec s
"""
LOGS_SQL = """
INSERT INTO pgqueuer_log (created, job_id, status, priority, entrypoint, traceback)
SELECT s.created + step.offset_s * interval '1 second', s.queue_id, step.status, 0, s.action,
       step.traceback
FROM fill_spec s
CROSS JOIN LATERAL (VALUES
    (1, 'picked'::pgqueuer_status, NULL::jsonb, true),
    (2, 'successful', NULL, NOT s.discarded),
    (2, 'failed', '{"exception_type": "ApiError", "exception_message": "503"}', s.discarded),
    (3, 'deleted', '{"exception_type": "Discarded", "exception_message": "duplicate"}',
     s.discarded)
) AS step(offset_s, status, traceback, present)
WHERE s.kind <> 'pruned' AND step.present
ORDER BY s.i, step.offset_s
"""
RECEIPTS_SQL = """
INSERT INTO effect_receipts (job_id, effect_key, fingerprint, result, created_at, completed_at)
SELECT s.id, 'xp:' || s.i, md5(s.id::text), '{"ok": true}', s.created + interval '1 second',
       s.created + interval '1 second'
FROM fill_spec s
"""
BINDINGS_SQL = """
INSERT INTO effect_bindings (job_id, effect_key, destination, state, channel_id, message_id,
                             created_at, updated_at)
SELECT s.id, 'announce:' || s.i, 'channel:1100000000000000001', 'completed',
       1100000000000000001, 1200000000000000000 + s.i, s.created + interval '1 second',
       s.created + interval '1 second'
FROM fill_spec s WHERE s.i % $1 = 0
"""
ACTIONS_SQL = """
INSERT INTO job_actions (job_id, action, idempotency_key, actor_id, expected_generation,
                         outcome, reason, detail, created_at)
SELECT s.id, 'discard', 'fill:' || s.id, 141372217677053952, 0, 'accepted', 'duplicate',
       jsonb_build_object('queue_job_id', s.queue_id), s.created + interval '3 seconds'
FROM fill_spec s WHERE s.discarded
"""
STATISTICS_SQL = """
INSERT INTO pgqueuer_statistics (created, count, priority, status, entrypoint)
SELECT date_trunc('sec', (s.created AT TIME ZONE 'UTC')) + interval '2 seconds', $1, 0,
       'successful', s.action
FROM fill_spec s WHERE s.kind <> 'pruned' AND s.i % $1 = 0
ON CONFLICT DO NOTHING
"""
# The receipt trigger checks each receipt at commit; every filled receipt is complete.
RECEIPT_TRIGGER = "effect_receipts_completed_at_commit"


async def fill_history(conn: asyncpg.Connection, n: int) -> None:
    """Add DUE jobs due for pruning and `n` other finished jobs, then VACUUM ANALYZE."""
    pruned = n // 2
    async with conn.transaction():
        await conn.execute(f"ALTER TABLE effect_receipts DISABLE TRIGGER {RECEIPT_TRIGGER}")
        await conn.execute(SPEC_SQL, n + DUE, pruned, DUE, DISCARD_EVERY, list(EVENTS), ENTITIES)
        await conn.execute(SEQUENCES_SQL)
        await conn.execute(JOBS_SQL, HISTORY_KEY)
        await conn.execute(LOGS_SQL)
        await conn.execute(RECEIPTS_SQL)
        await conn.execute(BINDINGS_SQL, BINDING_EVERY)
        await conn.execute(ACTIONS_SQL)
        await conn.execute(STATISTICS_SQL, STATS_EVERY)
        await conn.execute(f"ALTER TABLE effect_receipts ENABLE TRIGGER {RECEIPT_TRIGGER}")
    # The visibility map and statistics autovacuum would have by now.
    await conn.execute("VACUUM (ANALYZE)")


BACKLOG_EVENT = "completion.ocr.requested"


def ocr_body(i: int) -> str:
    return json.dumps(
        {
            "completion_id": i,
            "user_id": 1045678901234567890 + i,
            "code": "ABC12",
            "time": 51.2,
            "screenshot": f"https://cdn.example.test/screens/{i}.png",
        }
    )


async def fill_ready(conn: asyncpg.Connection, n: int, key_prefix: str) -> None:
    """`n` ready jobs of BACKLOG_EVENT through enqueue_job, committed in one transaction: an
    API-owned event, so the bot worker measured next to them leaves them queued."""
    async with conn.transaction():
        for i in range(1, n + 1):
            await enqueue_job_raw(
                conn,
                event_name=BACKLOG_EVENT,
                payload_json=ocr_body(i),
                event_key=f"{key_prefix}{i}",
                entity_key=f"completion:{key_prefix}{i}",
            )
