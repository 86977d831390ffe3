-- Failure handling for a claimed job. Two budgets are kept apart: pgqueuer.attempts counts
-- every transport retry (deferrals included), while public.jobs.handler_failures counts only
-- handler errors and is what exhausts a job into the held state.

-- Puts a claimed job back on the queue after p_delay. Transport attempts always count; the
-- handler failure budget only when p_handler_failure.
CREATE OR REPLACE FUNCTION queue_retry(
    p_id bigint, p_manager uuid, p_claimed_at timestamptz, p_delay interval,
    p_error jsonb DEFAULT NULL, p_handler_failure boolean DEFAULT false
) RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row   pgqueuer;
    v_error jsonb := queue_error_summary(p_error);
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN false;
    END IF;
    UPDATE pgqueuer q
    SET status = 'queued', queue_manager_id = NULL, updated = now(),
        execute_after = now() + greatest(p_delay, interval '0'), attempts = q.attempts + 1
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'queued', v_row.entrypoint, v_row.priority, v_error);
    IF p_handler_failure THEN
        UPDATE public.jobs j
        SET handler_failures = j.handler_failures + 1,
            error_code = v_error ->> 'exception_type',
            error_msg = v_error ->> 'exception_message'
        WHERE j.queue_job_id = p_id;
    END IF;
    PERFORM queue_wake();
    RETURN true;
END
$$;

-- Records one handler failure and applies the retry schedule: the n-th failure waits
-- p_delays[n]; once the schedule is exhausted the job is held. Returns 'retry', 'held', or
-- 'lost' when the caller's claim is stale (nothing was written).
CREATE OR REPLACE FUNCTION queue_fail(
    p_id bigint, p_manager uuid, p_claimed_at timestamptz, p_delays interval[], p_error jsonb
) RETURNS text
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_failures integer;
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN 'lost';
    END IF;
    PERFORM 1 FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'lost';
    END IF;
    SELECT j.handler_failures + 1 INTO v_failures FROM public.jobs j WHERE j.queue_job_id = p_id;
    IF v_failures IS NOT NULL AND v_failures <= coalesce(array_length(p_delays, 1), 0) THEN
        PERFORM queue_retry(p_id, p_manager, p_claimed_at, p_delays[v_failures], p_error, true);
        RETURN 'retry';
    END IF;
    PERFORM queue_hold(p_id, p_manager, p_claimed_at, p_error, true);
    RETURN 'held';
END
$$;
