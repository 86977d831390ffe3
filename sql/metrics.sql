-- Queue health for operators and monitoring.

-- One row: depth by state, age of the oldest ready job, held and uncertain counts (uncertain
-- sends of jobs not finished), how many workers beat within p_alive_within (live) and how many
-- did not (silent), ready and running jobs and live workers per owner, and the silent workers
-- with their last beat, newest first.
CREATE OR REPLACE FUNCTION queue_metrics(p_alive_within interval DEFAULT interval '1 minute')
RETURNS TABLE (
    ready bigint, delayed bigint, running bigint, held bigint, uncertain_effects bigint,
    oldest_ready_age interval, workers_alive bigint, workers_silent bigint,
    bot_ready bigint, api_ready bigint, bot_running bigint, api_running bigint,
    bot_workers_alive bigint, api_workers_alive bigint, silent_workers jsonb
)
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    WITH workers AS (
        SELECT w.*, w.beat_at >= now() - p_alive_within AS alive FROM queue_workers w
    )
    SELECT
        count(*) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        count(*) FILTER (WHERE q.status = 'queued' AND q.execute_after > now()),
        count(*) FILTER (WHERE q.status = 'picked'),
        count(*) FILTER (WHERE q.status = 'failed'),
        -- A discarded job's uncertain send stays recorded, but nothing can resolve it any
        -- more, so it asks for no attention.
        (SELECT count(*) FROM effect_bindings b JOIN public.jobs j ON j.id = b.job_id
         WHERE b.state = 'uncertain' AND j.finished_at IS NULL),
        now() - min(q.execute_after) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        (SELECT count(*) FROM workers w WHERE w.alive),
        (SELECT count(*) FROM workers w WHERE NOT w.alive),
        count(*) FILTER (WHERE t.owner = 'bot' AND q.status = 'queued' AND q.execute_after <= now()),
        count(*) FILTER (WHERE t.owner = 'api' AND q.status = 'queued' AND q.execute_after <= now()),
        count(*) FILTER (WHERE t.owner = 'bot' AND q.status = 'picked'),
        count(*) FILTER (WHERE t.owner = 'api' AND q.status = 'picked'),
        (SELECT count(*) FROM workers w WHERE w.alive AND w.owner = 'bot'),
        (SELECT count(*) FROM workers w WHERE w.alive AND w.owner = 'api'),
        (SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'owner', w.owner, 'host', w.host, 'pid', w.pid, 'beat_at', w.beat_at)
                    ORDER BY w.beat_at DESC), '[]'::jsonb)
         FROM workers w WHERE NOT w.alive)
    FROM pgqueuer q
    LEFT JOIN queue_event_types t ON t.event_name = q.entrypoint;
$$;

-- One row per registered entrypoint, idle ones included with zeros: its owner, its ready,
-- delayed, running and held jobs, and the age of its oldest ready job (NULL when none is ready).
CREATE OR REPLACE FUNCTION queue_entrypoint_metrics()
RETURNS TABLE (
    entrypoint text, owner text, ready bigint, delayed bigint, running bigint, held bigint,
    oldest_ready_age interval
)
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    SELECT
        t.event_name,
        t.owner,
        count(q.id) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        count(q.id) FILTER (WHERE q.status = 'queued' AND q.execute_after > now()),
        count(q.id) FILTER (WHERE q.status = 'picked'),
        count(q.id) FILTER (WHERE q.status = 'failed'),
        now() - min(q.execute_after) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now())
    FROM queue_event_types t
    LEFT JOIN pgqueuer q ON q.entrypoint = t.event_name
    GROUP BY t.event_name, t.owner
    ORDER BY t.event_name;
$$;
