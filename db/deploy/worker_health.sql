-- Whether a host's queue workers are consuming, for the container health checks. Judged from
-- the database, not from the process: a worker consumes while its liveness row keeps being
-- beaten within the stale-heartbeat threshold by a session that is still connected.

-- The liveness rows of p_owner's workers on p_host, newest beat first. consuming is true for a
-- row beaten within queue_settings.stale_heartbeat by a session still connected. The worker
-- login runs bot workers only, so it may read only theirs.
CREATE OR REPLACE FUNCTION queue_worker_health(p_owner text, p_host text)
RETURNS TABLE (
    manager_id uuid, pid integer, started_at timestamptz, beat_at timestamptz,
    silent_for interval, session_alive boolean, consuming boolean
)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
BEGIN
    IF p_owner IS DISTINCT FROM 'bot' AND queue_session_is_worker() THEN
        RAISE EXCEPTION 'the queue worker login runs bot workers only' USING ERRCODE = '42501';
    END IF;
    RETURN QUERY
    SELECT w.manager_id, w.pid, w.started_at, w.beat_at, now() - w.beat_at,
           queue_session_alive(w.backend_pid),
           w.beat_at >= now() - s.stale_heartbeat AND queue_session_alive(w.backend_pid)
    FROM queue_workers w CROSS JOIN queue_settings s
    WHERE w.owner = p_owner AND w.host = p_host
    ORDER BY w.beat_at DESC;
END
$$;

-- The bot's health check logs in as the worker, which has no privileges on queue_workers.
GRANT EXECUTE ON FUNCTION queue_worker_health(text, text) TO genjishimada_queue_worker;
