-- Queue health for operators and monitoring.

-- Each running queue manager beats here; a worker is alive while its beat is fresh.
CREATE OR REPLACE FUNCTION queue_worker_beat(p_manager uuid, p_owner text, p_host text, p_pid integer)
RETURNS void
LANGUAGE sql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
    INSERT INTO queue_workers (manager_id, owner, host, pid)
    VALUES (p_manager, p_owner, left(p_host, 200), p_pid)
    ON CONFLICT (manager_id) DO UPDATE SET beat_at = now();
    -- Killed workers never say goodbye; forget them once they have been silent for a day.
    DELETE FROM queue_workers WHERE beat_at < now() - interval '1 day';
$$;

CREATE OR REPLACE FUNCTION queue_worker_stopped(p_manager uuid) RETURNS void
LANGUAGE sql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
    DELETE FROM queue_workers WHERE manager_id = p_manager;
$$;

-- One row: depth by state, age of the oldest ready job, held and uncertain counts, how many
-- workers beat within p_alive_within (live) and how many did not (silent), ready and running
-- jobs and live workers per owner, and the silent workers with their last beat, newest first.
-- Its columns grew after it was first deployed, which CREATE OR REPLACE cannot do.
DROP FUNCTION IF EXISTS queue_metrics(interval);
CREATE FUNCTION queue_metrics(p_alive_within interval DEFAULT interval '1 minute')
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
        (SELECT count(*) FROM effect_bindings b WHERE b.state = 'uncertain'),
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
