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
    v_row   pgqueuer;
    v_error jsonb := queue_error_summary(p_error);
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN false;
    END IF;
    UPDATE pgqueuer q
    SET status = 'failed', queue_manager_id = NULL, updated = now()
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'failed', v_row.entrypoint, v_row.priority, v_error);
    UPDATE public.jobs j
    SET handler_failures = j.handler_failures + p_handler_failure::int,
        error_code = coalesce(v_error ->> 'exception_type', 'held'),
        error_msg = v_error ->> 'exception_message',
        held_at = now()
    WHERE j.queue_job_id = p_id;
    RETURN true;
END
$$;
