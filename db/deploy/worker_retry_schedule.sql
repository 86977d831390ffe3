-- The retry schedule each worker applies, recorded in its liveness row, so that what an
-- operator is told about a job's failure budget is what the workers do, not what the
-- operator's own environment says. A worker records it once it has registered
-- (queue_worker_beat); the row and its schedule go with the worker.

-- Records the calling worker's retry schedule (seconds after each handler failure; one more
-- failure holds the job) in its liveness row. Only the session that registered the manager may
-- record it. Returns whether a row was updated.
CREATE OR REPLACE FUNCTION queue_worker_retry_schedule(p_manager uuid, p_delays double precision[])
RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
BEGIN
    IF p_delays IS NULL OR array_position(p_delays, NULL) IS NOT NULL
       OR EXISTS (SELECT 1 FROM unnest(p_delays) d WHERE d < 0 OR d = 'NaN' OR d = 'Infinity') THEN
        RAISE EXCEPTION 'a retry schedule is a list of finite delays of 0 seconds or more'
            USING ERRCODE = 'GJ003';
    END IF;
    UPDATE queue_workers w SET retry_delays = p_delays
    WHERE w.manager_id = p_manager AND w.backend_pid = pg_backend_pid();
    RETURN FOUND;
END
$$;

-- The failure budgets p_owner's registered workers apply, one row per distinct schedule
-- (retry_delays NULL: workers that recorded none), with how many workers apply it and how many
-- of them are live (beaten within queue_settings.stale_heartbeat by a connected session). The
-- budget is the schedule's length: failures retried before the job is held. Live groups first,
-- then by latest beat.
CREATE OR REPLACE FUNCTION queue_worker_budgets(p_owner text)
RETURNS TABLE (failure_budget integer, retry_delays double precision[], workers integer,
               live integer, last_beat_at timestamptz)
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    SELECT cardinality(w.retry_delays), w.retry_delays, count(*)::integer,
           (count(*) FILTER (WHERE w.beat_at >= now() - s.stale_heartbeat
                                   AND queue_session_alive(w.backend_pid)))::integer,
           max(w.beat_at)
    FROM queue_workers w CROSS JOIN queue_settings s
    WHERE w.owner = p_owner
    GROUP BY w.retry_delays
    ORDER BY 4 DESC, 5 DESC;
$$;

GRANT EXECUTE ON FUNCTION queue_worker_retry_schedule(uuid, double precision[])
    TO genjishimada_queue_worker;
