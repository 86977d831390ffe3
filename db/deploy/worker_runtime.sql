CREATE TABLE queue_workers (
    manager_id uuid PRIMARY KEY,
    owner      text NOT NULL CHECK (owner IN ('bot', 'api')),
    host       text NOT NULL,
    pid        integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    beat_at    timestamptz NOT NULL DEFAULT now()
);

\ir ../../sql/fencing.sql
\ir ../../sql/gates.sql
\ir ../../sql/metrics.sql

REVOKE EXECUTE ON FUNCTION
    queue_resume_dependents(bigint),
    queue_begin(bigint, uuid, timestamptz, integer, interval),
    queue_worker_beat(uuid, text, text, integer),
    queue_worker_stopped(uuid),
    queue_metrics(interval)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    queue_begin(bigint, uuid, timestamptz, integer, interval),
    queue_worker_beat(uuid, text, text, integer),
    queue_worker_stopped(uuid)
TO genjishimada_queue_worker;
