-- The queue's scheduled log pruning. The API worker calls queue_retention_run every few
-- minutes; it prunes only when the last run started at least p_every ago, and only in the one
-- caller that locks the schedule row: other processes return at once (ran = false). Each run
-- prunes in batches with queue_prune_logs (summaries first, same transaction) and records what
-- it did in queue_maintenance. Receipts and bindings are never pruned here: they are kept as
-- long as their job exists, so a replay always finds them.
-- Returns ran, pruned (jobs whose logs were removed), batches and the run's start time (for a
-- run that did not happen: the last one's).
CREATE OR REPLACE FUNCTION queue_retention_run(
    p_every interval DEFAULT interval '1 day',
    p_retention interval DEFAULT interval '30 days',
    p_batch integer DEFAULT 1000,
    p_max_batches integer DEFAULT 100
) RETURNS TABLE (ran boolean, pruned integer, batches integer, started_at timestamptz)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_task    queue_maintenance;
    v_pruned  integer := 0;
    v_batches integer := 0;
    v_count   integer;
BEGIN
    IF p_every IS NULL OR p_retention IS NULL OR p_batch IS NULL OR p_batch < 1
       OR p_max_batches IS NULL OR p_max_batches < 1 THEN
        RAISE EXCEPTION 'a retention run needs an interval, a retention and positive batch limits'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_task FROM queue_maintenance m WHERE m.task = 'prune_logs'
    FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN QUERY SELECT false, 0, 0, NULL::timestamptz;
        RETURN;
    END IF;
    IF v_task.last_started_at IS NOT NULL AND v_task.last_started_at > now() - p_every THEN
        RETURN QUERY SELECT false, 0, 0, v_task.last_started_at;
        RETURN;
    END IF;
    LOOP
        v_count := queue_prune_logs(p_retention, p_batch);
        v_pruned := v_pruned + v_count;
        v_batches := v_batches + 1;
        EXIT WHEN v_count < p_batch OR v_batches >= p_max_batches;
    END LOOP;
    UPDATE queue_maintenance m
    SET last_started_at = now(), last_finished_at = clock_timestamp(),
        last_result = jsonb_build_object('pruned', v_pruned, 'batches', v_batches,
                                         'retention', p_retention::text)
    WHERE m.task = 'prune_logs';
    RETURN QUERY SELECT true, v_pruned, v_batches, now();
END
$$;
