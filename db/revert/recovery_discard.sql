-- The operator's discard of a held job: the only terminal cancellation. In one transaction it
-- records the action, deletes the held queue row, logs it 'deleted' (public status 'failed',
-- error code 'Discarded') and makes the jobs that waited for it ready: later events of its
-- entity are no longer deferred behind it, and dependents still deferred reach the start gate,
-- which holds them as DependencyFailed. A reason is required. Owner role only.
-- Returns one row like recovery_retry (accepted, duplicate, succeeded, discarded,
-- stale_generation, queued, running, needs_inspection); an uncertain send does not block it.
-- Errors: GJ003 missing actor, generation, key, context or reason; GJ404 no such job; GJ008
-- the key recorded another action.
CREATE OR REPLACE FUNCTION recovery_discard(
    p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint,
    p_reason text, p_context jsonb DEFAULT '{}'
) RETURNS TABLE (outcome text, job_id uuid, retry_generation integer, state text,
                 action_id bigint, recorded_outcome text)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job      public.jobs;
    v_recorded job_actions;
    v_state    text;
    v_row      pgqueuer;
    v_action   bigint;
    v_resumed  integer;
BEGIN
    PERFORM recovery_check_request(p_expected_generation, p_idempotency_key, p_actor_id, p_context);
    IF coalesce(btrim(p_reason), '') = '' OR length(p_reason) > 500 THEN
        RAISE EXCEPTION 'discarding a job needs a reason of 1 to 500 characters'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_job FROM public.jobs j WHERE j.id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % not found', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    PERFORM 1 FROM pgqueuer q WHERE q.id = v_job.queue_job_id FOR UPDATE;
    v_state := recovery_job_state(v_job);

    v_recorded := recovery_recorded_action(p_idempotency_key, p_job_id, 'discard');
    IF v_recorded.id IS NOT NULL THEN
        RETURN QUERY SELECT 'duplicate'::text, v_job.id, v_job.retry_generation, v_state,
                            v_recorded.id, v_recorded.outcome;
        RETURN;
    END IF;

    outcome := CASE
        WHEN v_state IN ('succeeded', 'discarded', 'needs_inspection') THEN v_state
        WHEN v_job.retry_generation <> p_expected_generation THEN 'stale_generation'
        WHEN v_state = 'running' THEN 'running'
        WHEN v_state IN ('pending', 'retrying') THEN 'queued'
        ELSE 'accepted' END;
    IF outcome <> 'accepted' THEN
        RETURN QUERY SELECT outcome, v_job.id, v_job.retry_generation, v_state,
                            NULL::bigint, NULL::text;
        RETURN;
    END IF;

    -- The audit row comes first: the held-row guard lets only an audited discard delete.
    INSERT INTO job_actions AS a (job_id, action, idempotency_key, actor_id, expected_generation,
                                  outcome, reason, detail)
    VALUES (v_job.id, 'discard', p_idempotency_key, p_actor_id, p_expected_generation,
            'accepted', p_reason, jsonb_build_object(
                'context', recovery_context(p_context),
                'queue_job_id', v_job.queue_job_id,
                'held_error_code', v_job.error_code,
                'held_error_msg', v_job.error_msg))
    RETURNING a.id INTO v_action;

    DELETE FROM pgqueuer q WHERE q.id = v_job.queue_job_id AND q.status = 'failed'
    RETURNING q.* INTO STRICT v_row;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'deleted', v_row.entrypoint, v_row.priority, jsonb_build_object(
        'exception_type', 'Discarded',
        'exception_message', left(format('discarded by operator %s: %s (held as %s: %s)',
            p_actor_id, p_reason, coalesce(v_job.error_code, 'held'), v_job.error_msg), 300)));
    UPDATE public.jobs j SET finished_at = now() WHERE j.id = v_job.id;

    WITH waiters AS (
        SELECT d.queue_job_id AS id FROM public.jobs d WHERE d.depends_on = v_job.id
        UNION
        SELECT e.queue_job_id FROM public.jobs e
        WHERE v_job.entity_key IS NOT NULL AND e.entity_key = v_job.entity_key
          AND e.event_seq > v_job.event_seq AND e.finished_at IS NULL
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
    UPDATE job_actions a SET detail = a.detail || jsonb_build_object('resumed', v_resumed)
    WHERE a.id = v_action;
    PERFORM queue_wake();
    RETURN QUERY SELECT 'accepted'::text, v_job.id, v_job.retry_generation, 'discarded'::text,
                        v_action, NULL::text;
END
$$;
