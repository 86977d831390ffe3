-- PGQueuer's trigger is statement-level, so UPDATE-based transitions (retry, release, requeue)
-- never notify. Callers of this function wake idle workers at commit instead of leaving them to
-- the polling fallback.
CREATE OR REPLACE FUNCTION queue_wake() RETURNS void
LANGUAGE sql
AS $$
    SELECT pg_notify(
        'ch_pgqueuer',
        json_build_object(
            'channel', 'ch_pgqueuer',
            'operation', 'update',
            'sent_at', now(),
            'table', 'pgqueuer',
            'type', 'table_changed_event'
        )::text
    );
$$;
