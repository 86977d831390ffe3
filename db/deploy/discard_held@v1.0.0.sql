-- The operator's way out for a held job (pgqueuer status 'failed') until the audited recovery
-- service exists: the job ends as discarded and stops blocking its entity. In one transaction
-- it deletes the held queue row, logs it as 'deleted' (public status 'failed', error code
-- 'Discarded'), records the action in job_actions and makes the jobs that waited for it ready:
-- later events of its entity are no longer deferred behind it, and dependents still deferred
-- reach the start gate now, which holds them as DependencyFailed. Owner role only.
-- Returns 'discarded', or 'already discarded' (with the first call's audit row) when the job
-- was discarded before; nothing is written then. Errors:
--   GJ003 missing actor or reason, or the job is not held (queued, running or finished)
--   GJ404 no such job
CREATE OR REPLACE FUNCTION queue_discard_held(p_job_id uuid, p_actor_id bigint, p_reason text)
RETURNS TABLE (outcome text, action_id bigint, resumed integer)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job     public.jobs;
    v_row     pgqueuer;
    v_action  job_actions;
    v_resumed integer;
BEGIN
    IF p_actor_id IS NULL OR p_reason IS NULL OR btrim(p_reason) = '' THEN
        RAISE EXCEPTION 'discarding a held job needs the operator id and a reason'
            USING ERRCODE = 'GJ003';
    END IF;
    -- Concurrent discards of one job take turns here; the second sees the first's audit row.
    SELECT * INTO v_job FROM public.jobs j WHERE j.id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % not found', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    SELECT * INTO v_action FROM job_actions a
    WHERE a.job_id = p_job_id AND a.action = 'discard' AND a.outcome = 'discarded';
    IF FOUND THEN
        RETURN QUERY SELECT 'already discarded'::text, v_action.id, 0;
        RETURN;
    END IF;

    DELETE FROM pgqueuer q
    WHERE q.id = v_job.queue_job_id AND q.status = 'failed'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % is not held (public status %); only a held job can be discarded',
            p_job_id, (SELECT s.status FROM job_public_status(p_job_id) s)
            USING ERRCODE = 'GJ003';
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'deleted', v_row.entrypoint, v_row.priority, jsonb_build_object(
        'exception_type', 'Discarded',
        'exception_message', left(format('discarded by an operator: %s (held as %s: %s)',
            p_reason, coalesce(v_job.error_code, 'held'), v_job.error_msg), 300)));

    WITH waiters AS (
        SELECT d.queue_job_id AS id FROM public.jobs d WHERE d.depends_on = v_job.id
        UNION
        SELECT e.queue_job_id FROM public.jobs e
        WHERE v_job.entity_key IS NOT NULL AND e.entity_key = v_job.entity_key
          AND e.event_seq > v_job.event_seq
    ), resumed AS (
        UPDATE pgqueuer q
        SET execute_after = now(), updated = now()
        FROM waiters w
        WHERE q.id = w.id AND q.status = 'queued' AND q.execute_after > now()
        RETURNING q.id, q.entrypoint, q.priority
    ), logged AS (
        INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
        SELECT r.id, 'queued', r.entrypoint, r.priority,
               jsonb_build_object('exception_type', 'WaitOver',
                                  'exception_message', format('job %s was discarded', v_job.id))
        FROM resumed r
        RETURNING 1
    )
    SELECT count(*) INTO v_resumed FROM logged;

    INSERT INTO job_actions AS a (job_id, action, idempotency_key, actor_id, expected_generation,
                                  outcome, reason, detail)
    VALUES (v_job.id, 'discard', format('queue_discard_held:%s', v_job.id), p_actor_id,
            v_job.retry_generation, 'discarded', p_reason,
            jsonb_build_object('queue_job_id', v_row.id, 'held_error_code', v_job.error_code,
                               'held_error_msg', v_job.error_msg, 'resumed', v_resumed))
    RETURNING a.* INTO v_action;
    IF v_resumed > 0 THEN
        PERFORM queue_wake();
    END IF;
    RETURN QUERY SELECT 'discarded'::text, v_action.id, v_resumed;
END
$$;
