DROP FUNCTION queue_metrics(interval);
DROP FUNCTION queue_worker_stopped(uuid);
DROP FUNCTION queue_worker_beat(uuid, text, text, integer);
DROP FUNCTION queue_begin(bigint, uuid, timestamptz, integer, interval);
-- queue_complete returns to its previous definition (without dependent resumption).
CREATE OR REPLACE FUNCTION queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamptz)
RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row pgqueuer;
BEGIN
    DELETE FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
    VALUES (v_row.id, 'successful', v_row.entrypoint, v_row.priority);
    RETURN true;
END
$$;
DROP FUNCTION queue_resume_waiters(bigint);
DROP INDEX pgqueuer_one_running_per_entrypoint;
DROP TABLE queue_workers;
