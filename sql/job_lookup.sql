-- How an operator finds jobs: by the reference in hand, and among the finished ones. Every command of genji-jobs that takes a
-- job accepts what the operator has in hand: the public UUID, a prefix of it (the stand-in and
-- the logs print the first 8 characters), or the queue id the workers' logs print. Both
-- functions only read; owner role only.

-- The jobs a reference may mean, by public id: a whole UUID; a prefix of 8 to 32 hex digits
-- (dashes ignored); or digits only, also read as a queue id (a job keeps its queue id across
-- operator retries). At most p_limit rows, by public id.
-- Errors: GJ003 a reference of none of these forms or a limit out of 1 to 100.
CREATE OR REPLACE FUNCTION job_lookup(p_ref text, p_limit integer)
RETURNS TABLE (job_id uuid, queue_job_id bigint, event_name text, created_at timestamptz)
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_ref  text := lower(btrim(coalesce(p_ref, '')));
    v_hex  text;
    v_low  uuid;
    v_high uuid;
    v_id   bigint;
BEGIN
    IF p_limit IS NULL OR p_limit < 1 OR p_limit > 100 THEN
        RAISE EXCEPTION 'the lookup limit must be 1 to 100, not %',
            coalesce(p_limit::text, 'nothing') USING ERRCODE = 'GJ003';
    END IF;
    v_hex := replace(v_ref, '-', '');
    IF v_ref ~ '^[0-9a-f-]+$' AND length(v_hex) BETWEEN 8 AND 32 THEN
        -- A range of the primary key: UUIDs order like their hex text.
        v_low := rpad(v_hex, 32, '0')::uuid;
        v_high := rpad(v_hex, 32, 'f')::uuid;
    END IF;
    IF v_ref ~ '^[0-9]{1,18}$' THEN
        v_id := v_ref::bigint;
    END IF;
    IF v_low IS NULL AND v_id IS NULL THEN
        RAISE EXCEPTION 'job reference % is not a UUID, a UUID prefix of at least 8 hex '
            'digits or a queue id', quote_literal(coalesce(p_ref, '')) USING ERRCODE = 'GJ003';
    END IF;
    RETURN QUERY
    SELECT j.id, j.queue_job_id, j.action, j.created_at
    FROM public.jobs j
    WHERE (v_low IS NOT NULL AND j.id BETWEEN v_low AND v_high)
       OR (v_id IS NOT NULL AND j.queue_job_id = v_id)
    ORDER BY j.id
    LIMIT p_limit;
END
$$;

-- Finished jobs, most recently finished first: succeeded, discarded, or NULL for both (a job
-- whose end cannot be told is listed as needs_inspection, under NULL only). Same columns as
-- job_list, plus finished_at. p_entrypoint narrows to one event name. At most p_limit rows (1
-- to 500). Errors: GJ003 an unknown state or a limit out of range.
CREATE OR REPLACE FUNCTION job_list_finished(p_state text, p_entrypoint text, p_limit integer)
RETURNS TABLE (job_id uuid, event_name text, state text, uncertain boolean,
               retry_generation integer, handler_failures integer, error_code text,
               error_msg text, created_at timestamptz, held_at timestamptz,
               finished_at timestamptz)
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
BEGIN
    IF p_state IS NOT NULL AND p_state NOT IN ('succeeded', 'discarded') THEN
        RAISE EXCEPTION 'unknown finished state %; use succeeded or discarded',
            quote_literal(p_state) USING ERRCODE = 'GJ003';
    END IF;
    IF p_limit IS NULL OR p_limit < 1 OR p_limit > 500 THEN
        RAISE EXCEPTION 'the list limit must be 1 to 500, not %', coalesce(p_limit::text, 'nothing')
            USING ERRCODE = 'GJ003';
    END IF;
    RETURN QUERY
    SELECT j.id, j.action, s.state, false, j.retry_generation, j.handler_failures,
           j.error_code, j.error_msg, j.created_at, j.held_at, j.finished_at
    FROM public.jobs j
    CROSS JOIN LATERAL (SELECT recovery_job_state(j) AS state) s
    WHERE j.finished_at IS NOT NULL
      AND (p_entrypoint IS NULL OR j.action = p_entrypoint)
      AND (p_state IS NULL OR s.state = p_state)
    ORDER BY j.finished_at DESC, j.id DESC
    LIMIT p_limit;
END
$$;
