-- Fenced queue writes. A claim is (queue job id, queue_manager_id, updated-at-claim):
-- queue_claim sets `updated` when it claims a row and heartbeats never touch it, so a stale
-- owner's token stops matching the moment another worker reclaims the job. Every write here
-- changes nothing for a stale token, or for a token of a manager the calling worker session did
-- not register (queue_may_act_for), and reports that with false (for heartbeats, the lost ids).

CREATE OR REPLACE FUNCTION queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamptz)
RETURNS boolean
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
    DELETE FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
    VALUES (v_row.id, 'successful', v_row.entrypoint, v_row.priority);
    -- A finished job leaves the index of unfinished entity jobs the start gate reads.
    UPDATE public.jobs j SET finished_at = now() WHERE j.queue_job_id = v_row.id;
    PERFORM queue_resume_waiters(v_row.id);
    RETURN true;
END
$$;

-- Jobs waiting on a job that just succeeded: its dependents and later events of its entity
-- become ready now instead of at their next re-check, and dependents held because the parent
-- had failed go back to the queue by themselves.
CREATE OR REPLACE FUNCTION queue_resume_waiters(p_queue_id bigint) RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job public.jobs;
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.queue_job_id = p_queue_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    WITH waiters AS (
        SELECT d.queue_job_id AS id, d.error_code = 'DependencyFailed' AS held_for_parent
        FROM public.jobs d WHERE d.depends_on = v_job.id
        UNION ALL
        SELECT e.queue_job_id, false
        FROM public.jobs e
        WHERE v_job.entity_key IS NOT NULL AND e.entity_key = v_job.entity_key
          AND e.event_seq > v_job.event_seq AND e.finished_at IS NULL
    ), resumed AS (
        UPDATE pgqueuer q
        SET status = 'queued', execute_after = now(), updated = now(), queue_manager_id = NULL
        FROM waiters w
        WHERE q.id = w.id
          AND ((q.status = 'queued' AND q.execute_after > now())
               OR (q.status = 'failed' AND w.held_for_parent))
        RETURNING q.id, q.entrypoint, q.priority
    )
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    SELECT r.id, 'queued', r.entrypoint, r.priority,
           jsonb_build_object('exception_type', 'WaitOver',
                              'exception_message', format('job %s succeeded', v_job.id))
    FROM resumed r;
    IF FOUND THEN
        PERFORM queue_wake();
    END IF;
END
$$;

DROP FUNCTION queue_complete_many(bigint[], uuid[], timestamptz[]);
