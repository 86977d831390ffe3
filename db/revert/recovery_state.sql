-- How operator recovery reads a job. Every recovery function locks the public.jobs row
-- FOR UPDATE first and its pgqueuer row second; the alert reconciliation takes the same job
-- row lock, so a generation it captures cannot be overtaken by a concurrent retry.

-- The job's state: pending (queued, no handler failure in this generation), retrying (queued
-- after one), running (claimed), held (waiting for the operator), succeeded, discarded, or
-- needs_inspection (no queue metadata, or a combination that should not exist).
CREATE OR REPLACE FUNCTION recovery_job_state(p_job public.jobs) RETURNS text
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_active   pgqueuer_status;
    v_terminal text;
BEGIN
    IF p_job.queue_job_id IS NULL THEN
        RETURN 'needs_inspection';
    END IF;
    SELECT q.status INTO v_active FROM pgqueuer q WHERE q.id = p_job.queue_job_id;
    IF FOUND THEN
        RETURN CASE v_active
            WHEN 'failed' THEN 'held'
            WHEN 'picked' THEN 'running'
            WHEN 'queued' THEN CASE WHEN p_job.handler_failures > 0 THEN 'retrying' ELSE 'pending' END
            ELSE 'needs_inspection' END;
    END IF;
    SELECT l.status::text INTO v_terminal FROM pgqueuer_log l
    WHERE l.job_id = p_job.queue_job_id
      AND l.status IN ('successful', 'exception', 'canceled', 'deleted')
    ORDER BY l.created DESC, l.id DESC
    LIMIT 1;
    IF NOT FOUND AND p_job.summarized_at IS NOT NULL THEN
        -- Logs were pruned: the summary says how the job ended.
        v_terminal := CASE WHEN p_job.status = 'succeeded' THEN 'successful'
                           WHEN p_job.error_code = 'Discarded' THEN 'deleted' END;
    END IF;
    RETURN CASE v_terminal WHEN 'successful' THEN 'succeeded' WHEN 'deleted' THEN 'discarded'
                           ELSE 'needs_inspection' END;
END
$$;

-- Whether a Discord send of the job is uncertain, which blocks a retry until it is resolved.
CREATE OR REPLACE FUNCTION recovery_has_uncertain_send(p_job_id uuid) RETURNS boolean
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    SELECT EXISTS (SELECT 1 FROM effect_bindings b WHERE b.job_id = p_job_id AND b.state = 'uncertain')
$$;

-- The arguments every recovery action needs, checked the same way (GJ003).
CREATE OR REPLACE FUNCTION recovery_check_request(
    p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_context jsonb
) RETURNS void
LANGUAGE plpgsql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
BEGIN
    IF p_actor_id IS NULL OR p_actor_id <= 0 THEN
        RAISE EXCEPTION 'a recovery action needs the operator''s user id' USING ERRCODE = 'GJ003';
    END IF;
    IF p_expected_generation IS NULL OR p_expected_generation < 0 THEN
        RAISE EXCEPTION 'a recovery action needs the retry generation the operator saw'
            USING ERRCODE = 'GJ003';
    END IF;
    IF coalesce(btrim(p_idempotency_key), '') = '' OR length(p_idempotency_key) > 200 THEN
        RAISE EXCEPTION 'a recovery action needs an idempotency key of 1 to 200 characters'
            USING ERRCODE = 'GJ003';
    END IF;
    IF p_context IS NULL OR jsonb_typeof(p_context) <> 'object' THEN
        RAISE EXCEPTION 'the operation context must be a JSON object' USING ERRCODE = 'GJ003';
    END IF;
END
$$;

-- The action an idempotency key already recorded, if any. A key names one action on one job:
-- reusing it for another job or another kind of action is refused (GJ008).
CREATE OR REPLACE FUNCTION recovery_recorded_action(
    p_idempotency_key text, p_job_id uuid, p_action text
) RETURNS job_actions
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_action job_actions;
BEGIN
    SELECT * INTO v_action FROM job_actions a WHERE a.idempotency_key = p_idempotency_key;
    IF FOUND AND (v_action.job_id <> p_job_id OR v_action.action <> p_action) THEN
        RAISE EXCEPTION 'idempotency key % already recorded a % of job %',
            quote_literal(p_idempotency_key), v_action.action, v_action.job_id
            USING ERRCODE = 'GJ008';
    END IF;
    RETURN v_action;
END
$$;

-- The operation context as stored in the audit: its known keys only.
CREATE OR REPLACE FUNCTION recovery_context(p_context jsonb) RETURNS jsonb
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
    SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
    FROM jsonb_each(p_context) e
    WHERE e.key IN ('source', 'guild_id', 'channel_id', 'message_id', 'interaction_id')
$$;
