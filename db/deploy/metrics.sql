-- Queue health for operators and monitoring.

-- One row: depth by state, age of the oldest ready job, held and uncertain counts, and how many
-- workers beat within p_alive_within.
CREATE OR REPLACE FUNCTION queue_metrics(p_alive_within interval DEFAULT interval '1 minute')
RETURNS TABLE (
    ready bigint, delayed bigint, running bigint, held bigint, uncertain_effects bigint,
    oldest_ready_age interval, workers_alive bigint, workers_silent bigint
)
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    SELECT
        count(*) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        count(*) FILTER (WHERE q.status = 'queued' AND q.execute_after > now()),
        count(*) FILTER (WHERE q.status = 'picked'),
        count(*) FILTER (WHERE q.status = 'failed'),
        (SELECT count(*) FROM effect_bindings b WHERE b.state = 'uncertain'),
        now() - min(q.execute_after) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        (SELECT count(*) FROM queue_workers w WHERE w.beat_at >= now() - p_alive_within),
        (SELECT count(*) FROM queue_workers w WHERE w.beat_at < now() - p_alive_within)
    FROM pgqueuer q;
$$;
