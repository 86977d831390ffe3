-- What an operator reads about queued work, in recovery's terms (recovery_job_state). Both
-- functions only read; neither returns a payload, headers, a receipt's result or an audit
-- row's detail. Error text is the summary the queue stored (queue_error_summary). Owner role
-- only.

-- The jobs in one state, newest first: pending, retrying, running, held, or uncertain (held
-- with an uncertain Discord send); NULL lists all four active states. p_entrypoint narrows to
-- one event name. At most p_limit rows (1 to 500). Errors: GJ003 an unknown state or a limit
-- out of range.
CREATE OR REPLACE FUNCTION job_list(p_state text, p_entrypoint text, p_limit integer)
RETURNS TABLE (job_id uuid, event_name text, state text, uncertain boolean,
               retry_generation integer, handler_failures integer, error_code text,
               error_msg text, created_at timestamptz, held_at timestamptz)
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
BEGIN
    IF p_state IS NOT NULL
       AND p_state NOT IN ('pending', 'retrying', 'running', 'held', 'uncertain') THEN
        RAISE EXCEPTION 'unknown job state %; use pending, retrying, running, held or uncertain',
            quote_literal(p_state) USING ERRCODE = 'GJ003';
    END IF;
    IF p_limit IS NULL OR p_limit < 1 OR p_limit > 500 THEN
        RAISE EXCEPTION 'the list limit must be 1 to 500, not %', coalesce(p_limit::text, 'nothing')
            USING ERRCODE = 'GJ003';
    END IF;
    RETURN QUERY
    SELECT j.id, j.action, s.state, s.uncertain, j.retry_generation, j.handler_failures,
           j.error_code, j.error_msg, j.created_at, j.held_at
    FROM pgqueuer q
    JOIN public.jobs j ON j.queue_job_id = q.id
    CROSS JOIN LATERAL (
        SELECT recovery_job_state(j) AS state,
               q.status = 'failed' AND recovery_has_uncertain_send(j.id) AS uncertain
    ) s
    WHERE (p_entrypoint IS NULL OR q.entrypoint = p_entrypoint)
      -- Only the queue statuses the asked state can have, before the state is computed.
      AND q.status = ANY (CASE p_state
          WHEN 'pending' THEN '{queued}'::pgqueuer_status[]
          WHEN 'retrying' THEN '{queued}'::pgqueuer_status[]
          WHEN 'running' THEN '{picked}'::pgqueuer_status[]
          WHEN 'held' THEN '{failed}'::pgqueuer_status[]
          WHEN 'uncertain' THEN '{failed}'::pgqueuer_status[]
          ELSE '{queued,picked,failed}'::pgqueuer_status[] END)
      AND (p_state IS NULL
           OR (p_state = 'uncertain' AND s.uncertain)
           OR s.state = p_state)
    ORDER BY j.created_at DESC NULLS LAST, j.id DESC
    LIMIT p_limit;
END
$$;

-- One job as an operator inspects it: its recovery state and public status (the status is
-- NULL when the queue metadata is inconsistent, where GET /internal/jobs/{id} answers that
-- it needs reconciliation), budgets, last error, identity, whether a retry would be accepted
-- now, and its effect progress and recovery history as JSON arrays:
--   receipts  [{effect_key, completed, created_at, completed_at}]
--   bindings  [{effect_key, destination, state, channel_id, message_id, thread_id, updated_at}]
--   actions   [{id, action, actor_id, expected_generation, outcome, reason, created_at}]
-- STABLE, so every part is read from one snapshot. Errors: GJ404 no such job.
CREATE OR REPLACE FUNCTION job_details(p_job_id uuid)
RETURNS TABLE (job_id uuid, event_name text, state text, status text, retry_generation integer,
               handler_failures integer, attempts integer, error_code text, error_msg text,
               event_key text, entity_key text, created_at timestamptz, held_at timestamptz,
               uncertain boolean, retry_enabled boolean, receipts jsonb, bindings jsonb,
               actions jsonb)
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job       public.jobs;
    v_state     text;
    v_status    text;
    v_attempts  integer;
    v_uncertain boolean;
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.id = p_job_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % not found', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    v_state := recovery_job_state(v_job);
    BEGIN
        SELECT s.status INTO v_status FROM job_public_status(p_job_id) s;
    EXCEPTION WHEN SQLSTATE 'GJ500' THEN
        v_status := NULL;
    END;
    SELECT q.attempts INTO v_attempts FROM pgqueuer q WHERE q.id = v_job.queue_job_id;
    v_uncertain := recovery_has_uncertain_send(v_job.id);

    RETURN QUERY SELECT
        v_job.id, v_job.action, v_state, v_status, v_job.retry_generation,
        v_job.handler_failures, coalesce(v_attempts, v_job.attempts), v_job.error_code,
        v_job.error_msg, v_job.event_key, v_job.entity_key, v_job.created_at, v_job.held_at,
        v_uncertain, v_state = 'held' AND NOT v_uncertain,
        (SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'effect_key', r.effect_key, 'completed', r.completed_at IS NOT NULL,
                    'created_at', r.created_at, 'completed_at', r.completed_at)
                ORDER BY r.created_at, r.effect_key), '[]')
         FROM effect_receipts r WHERE r.job_id = v_job.id),
        (SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'effect_key', b.effect_key, 'destination', b.destination,
                    'state', b.state, 'channel_id', b.channel_id, 'message_id', b.message_id,
                    'thread_id', b.thread_id, 'updated_at', b.updated_at)
                ORDER BY b.created_at, b.effect_key, b.destination), '[]')
         FROM effect_bindings b WHERE b.job_id = v_job.id),
        (SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'id', a.id, 'action', a.action, 'actor_id', a.actor_id,
                    'expected_generation', a.expected_generation, 'outcome', a.outcome,
                    'reason', a.reason, 'created_at', a.created_at)
                ORDER BY a.id), '[]')
         FROM job_actions a WHERE a.job_id = v_job.id);
END
$$;
