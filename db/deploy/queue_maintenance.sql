-- When each scheduled maintenance task of the queue last ran, and what it did; its row is also
-- the lock that lets one process at a time run it.
CREATE TABLE queue_maintenance (
    task             text PRIMARY KEY CHECK (task <> ''),
    last_started_at  timestamptz,
    last_finished_at timestamptz,
    last_result      jsonb
);
INSERT INTO queue_maintenance (task) VALUES ('prune_logs');
