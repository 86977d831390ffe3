-- Running queue managers beat here (queue_worker_beat); a worker is alive while its beat is fresh.
CREATE TABLE queue_workers (
    manager_id uuid PRIMARY KEY,
    owner      text NOT NULL CHECK (owner IN ('bot', 'api')),
    host       text NOT NULL,
    pid        integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    beat_at    timestamptz NOT NULL DEFAULT now()
);

-- At most one running job per entrypoint, whichever worker claimed it. PGQueuer 1.1.1 counts
-- running jobs from its statement snapshot, so two workers dequeuing at once could both start
-- one; the losing claim now fails and claims nothing.
CREATE UNIQUE INDEX pgqueuer_one_running_per_entrypoint ON pgqueuer (entrypoint)
    WHERE status = 'picked';
