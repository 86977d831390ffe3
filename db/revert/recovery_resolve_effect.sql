-- The operator's resolution of an uncertain Discord send of a held job, audited:
--   located  the operator found the message: the binding is completed with its ids, so the
--            retried job reuses it (and writes its domain mirror) instead of sending again
--   resend   the operator decided it was not delivered: the binding is removed, so the
--            retried job sends it again; the removed row is kept in the audit detail
-- The job stays held; retry it next. Owner role only.
-- Returns one row like recovery_retry (accepted, duplicate, succeeded, discarded,
-- stale_generation, queued, running, needs_inspection, or not_uncertain when that send is not
-- uncertain). Errors: GJ003 missing actor, generation, key, context, decision, or a located
-- message without ids; GJ404 no such job or no such binding; GJ008 the key recorded another
-- action.
CREATE OR REPLACE FUNCTION recovery_resolve_effect(
    p_job_id uuid, p_effect_key text, p_destination text, p_decision text,
    p_channel_id bigint, p_message_id bigint, p_thread_id bigint,
    p_expected_generation integer, p_idempotency_key text, p_actor_id bigint,
    p_reason text DEFAULT NULL, p_context jsonb DEFAULT '{}'
) RETURNS TABLE (outcome text, job_id uuid, retry_generation integer, state text,
                 action_id bigint, recorded_outcome text)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job      public.jobs;
    v_recorded job_actions;
    v_state    text;
    v_binding  effect_bindings;
    v_action   bigint;
BEGIN
    PERFORM recovery_check_request(p_expected_generation, p_idempotency_key, p_actor_id, p_context);
    IF p_decision IS NULL OR p_decision NOT IN ('located', 'resend') THEN
        RAISE EXCEPTION 'an uncertain send is resolved as located or resend, not %',
            coalesce(quote_literal(p_decision), 'nothing') USING ERRCODE = 'GJ003';
    END IF;
    IF p_decision = 'located' AND (p_channel_id IS NULL
                                   OR (p_message_id IS NULL AND p_thread_id IS NULL)) THEN
        RAISE EXCEPTION 'a located send needs its channel id and its message or thread id'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_job FROM public.jobs j WHERE j.id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % not found', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    PERFORM 1 FROM pgqueuer q WHERE q.id = v_job.queue_job_id FOR UPDATE;
    v_state := recovery_job_state(v_job);

    v_recorded := recovery_recorded_action(p_idempotency_key, p_job_id, 'resolve_effect');
    IF v_recorded.id IS NOT NULL THEN
        RETURN QUERY SELECT 'duplicate'::text, v_job.id, v_job.retry_generation, v_state,
                            v_recorded.id, v_recorded.outcome;
        RETURN;
    END IF;

    SELECT * INTO v_binding FROM effect_bindings b
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination
    FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'effect % of job % has no binding to %', quote_literal(p_effect_key),
            p_job_id, p_destination USING ERRCODE = 'GJ404';
    END IF;
    outcome := CASE
        WHEN v_state IN ('succeeded', 'discarded', 'needs_inspection') THEN v_state
        WHEN v_job.retry_generation <> p_expected_generation THEN 'stale_generation'
        WHEN v_state = 'running' THEN 'running'
        WHEN v_state IN ('pending', 'retrying') THEN 'queued'
        WHEN v_binding.state <> 'uncertain' THEN 'not_uncertain'
        ELSE 'accepted' END;
    IF outcome <> 'accepted' THEN
        RETURN QUERY SELECT outcome, v_job.id, v_job.retry_generation, v_state,
                            NULL::bigint, NULL::text;
        RETURN;
    END IF;

    INSERT INTO job_actions AS a (job_id, action, idempotency_key, actor_id, expected_generation,
                                  outcome, reason, detail)
    VALUES (v_job.id, 'resolve_effect', p_idempotency_key, p_actor_id, p_expected_generation,
            'accepted', p_reason, jsonb_build_object(
                'context', recovery_context(p_context),
                'decision', p_decision,
                'effect_key', p_effect_key,
                'destination', p_destination,
                'binding', to_jsonb(v_binding)))
    RETURNING a.id INTO v_action;

    IF p_decision = 'located' THEN
        UPDATE effect_bindings b
        SET state = 'completed', channel_id = p_channel_id, message_id = p_message_id,
            thread_id = p_thread_id, updated_at = now(),
            detail = coalesce(b.detail, '{}') || jsonb_build_object(
                'stage', 'completed', 'resolved_by', v_action)
        WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key
          AND b.destination = p_destination;
    ELSE
        DELETE FROM effect_bindings b
        WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key
          AND b.destination = p_destination;
    END IF;
    RETURN QUERY SELECT 'accepted'::text, v_job.id, v_job.retry_generation, v_state,
                        v_action, NULL::text;
END
$$;
