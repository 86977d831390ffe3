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
    v_row pgqueuer;
BEGIN
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
    VALUES (v_row.id, 'queued', v_row.entrypoint, v_row.priority, p_error);
    IF p_handler_failure THEN
        UPDATE public.jobs j
        SET handler_failures = j.handler_failures + 1,
            error_code = left(p_error ->> 'exception_type', 100),
            error_msg = left(p_error ->> 'exception_message', 300)
        WHERE j.queue_job_id = p_id;
    END IF;
    PERFORM queue_wake();
    RETURN true;
END
$$;

-- Holds a claimed job for the operator: the row stays in pgqueuer with status 'failed',
-- keeping its payload, and the error summary is recorded on the public job.
CREATE OR REPLACE FUNCTION queue_hold(
    p_id bigint, p_manager uuid, p_claimed_at timestamptz, p_error jsonb,
    p_handler_failure boolean DEFAULT false
) RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row pgqueuer;
BEGIN
    UPDATE pgqueuer q
    SET status = 'failed', queue_manager_id = NULL, updated = now()
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'failed', v_row.entrypoint, v_row.priority, p_error);
    UPDATE public.jobs j
    SET handler_failures = j.handler_failures + p_handler_failure::int,
        error_code = left(coalesce(p_error ->> 'exception_type', 'held'), 100),
        error_msg = left(p_error ->> 'exception_message', 300),
        held_at = now()
    WHERE j.queue_job_id = p_id;
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
