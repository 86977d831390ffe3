-- The operator's retry of a held job, in one transaction: the job goes back on the queue as
-- the same job (public UUID, queue id, event identity and payload unchanged; receipts and
-- bindings kept, so completed effects are not repeated) under the next retry generation, with
-- a fresh handler failure budget. Owner role only.
-- Returns one row; only 'accepted' changed anything:
--   accepted                 requeued now; audited in job_actions
--   duplicate                the idempotency key was used before: recorded_outcome and
--                            action_id are that request's
--   succeeded / discarded    the job is finished
--   stale_generation         the operator saw another generation than the current one
--   queued / running         the job is not held
--   reconciliation_required  a Discord send is uncertain: recovery_resolve_effect first
--   needs_inspection         the job's queue metadata is missing or inconsistent
-- Errors: GJ003 missing actor, generation, key or context; GJ404 no such job; GJ008 the key
-- recorded another action.
CREATE OR REPLACE FUNCTION recovery_retry(
    p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint,
    p_context jsonb DEFAULT '{}'
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
BEGIN
    PERFORM recovery_check_request(p_expected_generation, p_idempotency_key, p_actor_id, p_context);
    SELECT * INTO v_job FROM public.jobs j WHERE j.id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % not found', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    PERFORM 1 FROM pgqueuer q WHERE q.id = v_job.queue_job_id FOR UPDATE;
    v_state := recovery_job_state(v_job);

    v_recorded := recovery_recorded_action(p_idempotency_key, p_job_id, 'retry');
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
        WHEN recovery_has_uncertain_send(v_job.id) THEN 'reconciliation_required'
        ELSE 'accepted' END;
    IF outcome <> 'accepted' THEN
        RETURN QUERY SELECT outcome, v_job.id, v_job.retry_generation, v_state,
                            NULL::bigint, NULL::text;
        RETURN;
    END IF;

    -- The audit row comes first: the held-row guard lets only an audited retry requeue.
    INSERT INTO job_actions AS a (job_id, action, idempotency_key, actor_id, expected_generation,
                                  outcome, detail)
    VALUES (v_job.id, 'retry', p_idempotency_key, p_actor_id, p_expected_generation, 'accepted',
            jsonb_build_object(
                'context', recovery_context(p_context),
                'queue_job_id', v_job.queue_job_id,
                'generation', v_job.retry_generation + 1,
                'held_at', v_job.held_at,
                'held_error_code', v_job.error_code,
                'held_error_msg', v_job.error_msg,
                'handler_failures', v_job.handler_failures))
    RETURNING a.id INTO v_action;

    UPDATE public.jobs j
    SET retry_generation = j.retry_generation + 1, handler_failures = 0, held_at = NULL
    WHERE j.id = v_job.id;
    UPDATE pgqueuer q
    SET status = 'queued', queue_manager_id = NULL, execute_after = now(), updated = now(),
        attempts = 0
    WHERE q.id = v_job.queue_job_id AND q.status = 'failed'
    RETURNING q.* INTO STRICT v_row;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'queued', v_row.entrypoint, v_row.priority, jsonb_build_object(
        'exception_type', 'OperatorRetry',
        'exception_message', format('retried by operator %s as generation %s (action %s)',
                                    p_actor_id, v_job.retry_generation + 1, v_action)));
    PERFORM queue_wake();
    RETURN QUERY SELECT 'accepted'::text, v_job.id, v_job.retry_generation + 1, 'pending'::text,
                        v_action, NULL::text;
END
$$;
