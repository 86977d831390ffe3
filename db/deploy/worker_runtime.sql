-- Tables the worker runtime needs besides PGQueuer's: worker liveness, the claim settings the
-- database enforces, and the one-running-job-per-entrypoint rule.

-- One row per running queue manager, owned by the database session that registered it.
CREATE TABLE queue_workers (
    manager_id  uuid PRIMARY KEY,
    owner       text NOT NULL CHECK (owner IN ('bot', 'api')),
    host        text NOT NULL,
    pid         integer NOT NULL,
    backend_pid integer NOT NULL,
    started_at  timestamptz NOT NULL DEFAULT now(),
    beat_at     timestamptz NOT NULL DEFAULT now()
);

-- Claim settings owned by the database, not by the workers they constrain: a worker cannot
-- shorten the stale threshold to take over live claims, or raise the crash-loop cap.
CREATE TABLE queue_settings (
    singleton       boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    stale_heartbeat interval NOT NULL DEFAULT interval '60 seconds'
        CHECK (stale_heartbeat >= interval '1 second'),
    max_reclaims    integer NOT NULL DEFAULT 3 CHECK (max_reclaims >= 0)
);
INSERT INTO queue_settings DEFAULT VALUES;

-- At most one running job per entrypoint, whichever worker claimed it. PGQueuer 1.1.1 counts
-- running jobs from its statement snapshot, so two workers claiming at once could both start
-- one; the losing claim now fails and claims nothing.
CREATE UNIQUE INDEX pgqueuer_one_running_per_entrypoint ON pgqueuer (entrypoint)
    WHERE status = 'picked';
