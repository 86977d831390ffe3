-- Returns owned work to the queue without charging anything: used when an execution is
-- interrupted (shutdown, lost connection) rather than failed.
CREATE OR REPLACE FUNCTION queue_release(
    p_id bigint, p_manager uuid, p_claimed_at timestamptz, p_reason text DEFAULT 'released'
) RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row pgqueuer;
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN false;
    END IF;
    UPDATE pgqueuer q
    SET status = 'queued', queue_manager_id = NULL, updated = now(), execute_after = now()
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'queued', v_row.entrypoint, v_row.priority,
            jsonb_build_object('exception_type', 'Released', 'exception_message', p_reason));
    PERFORM queue_wake();
    RETURN true;
END
$$;
