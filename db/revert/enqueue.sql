-- Creates or resolves the durable job identity and its PGQueuer row inside the caller's
-- transaction. Never commits. Errors:
--   GJ001 the event key was already used with a different payload, entity key or parent
--   GJ002 unknown event name
--   GJ003 invalid argument: empty or over-long key (event_key and entity_key are at most 200
--         characters), non-object payload or trace, unknown parent, or a payload that breaks
--         its contract (unsupported version, over the size limit, a field's problem)
-- Run it under READ COMMITTED: there a concurrent enqueue of the same key waits and resolves.
-- Under REPEATABLE READ or SERIALIZABLE the waiting caller's snapshot cannot see the other
-- job, so PostgreSQL raises 40001 and the caller must retry its whole transaction.
-- The eight-argument form takes the public id to give the job (p_job_id, NULL for a fresh one):
-- a legacy public.jobs row with that id, the same event name and no event key is adopted;
-- GJ001 when the id names any other job.
CREATE OR REPLACE FUNCTION enqueue_job(
    p_event_name     text,
    p_payload        jsonb,
    p_event_key      text,
    p_entity_key     text,
    p_depends_on     uuid,
    p_schema_version integer,
    p_trace          jsonb,
    p_job_id         uuid,
    OUT job_id       uuid,
    OUT status       text,
    OUT error_code   text,
    OUT error_msg    text,
    OUT created      boolean
)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_type       queue_event_types;
    v_version    integer;
    v_hash       text;
    v_job_id     uuid := coalesce(p_job_id, gen_random_uuid());
    v_named      public.jobs;
    v_adopt      boolean := false;
    v_queue_id   bigint := nextval('pgqueuer_id_seq');
    v_existing   public.jobs;
    v_trace      jsonb;
    v_problem    text;
BEGIN
    SELECT * INTO v_type FROM queue_event_types t WHERE t.event_name = p_event_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown event name %', quote_nullable(p_event_name) USING ERRCODE = 'GJ002';
    END IF;
    IF p_event_key IS NULL OR p_event_key = '' THEN
        RAISE EXCEPTION 'event_key is required for %', p_event_name USING ERRCODE = 'GJ003';
    END IF;
    IF length(p_event_key) > 200 OR length(p_entity_key) > 200 THEN
        RAISE EXCEPTION 'event_key and entity_key of % must be at most 200 characters', p_event_name
            USING ERRCODE = 'GJ003';
    END IF;
    IF p_entity_key = '' THEN
        RAISE EXCEPTION 'entity_key of % must be NULL or non-empty', p_event_name USING ERRCODE = 'GJ003';
    END IF;
    IF p_trace IS NOT NULL AND jsonb_typeof(p_trace) <> 'object' THEN
        RAISE EXCEPTION 'trace for % must be a JSON object of header names to strings', p_event_name
            USING ERRCODE = 'GJ003';
    END IF;
    IF p_payload IS NULL OR jsonb_typeof(p_payload) <> 'object' THEN
        RAISE EXCEPTION 'payload for % must be a JSON object', p_event_name USING ERRCODE = 'GJ003';
    END IF;
    -- The SDK's payload contract: supported version, size limit and shape (payload_check.sql).
    v_version := coalesce(p_schema_version, payload_current_version(p_event_name));
    v_problem := payload_problem(p_event_name, v_version, p_payload);
    IF v_problem IS NOT NULL THEN
        RAISE EXCEPTION 'payload for % is invalid: %', p_event_name, v_problem USING ERRCODE = 'GJ003';
    END IF;
    IF p_depends_on IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.jobs j WHERE j.id = p_depends_on) THEN
        RAISE EXCEPTION 'depends_on job % does not exist', p_depends_on USING ERRCODE = 'GJ003';
    END IF;

    v_hash := encode(sha256(convert_to(p_payload::text, 'UTF8')), 'hex');

    -- Producers of one entity take turns until commit, so event_seq order is commit order.
    IF p_entity_key IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock(hashtextextended('genji.entity:' || p_entity_key, 0));
    END IF;

    -- A legacy identity row (no event key, never queued here) named by the caller is adopted,
    -- so an imported job keeps the public id its status pollers already hold.
    IF p_job_id IS NOT NULL THEN
        SELECT * INTO v_named FROM public.jobs j WHERE j.id = p_job_id FOR UPDATE;
        IF FOUND AND (v_named.action, v_named.event_key) IS DISTINCT FROM (p_event_name, p_event_key) THEN
            IF v_named.action <> p_event_name OR v_named.event_key IS NOT NULL
               OR v_named.queue_job_id IS NOT NULL THEN
                RAISE EXCEPTION 'job id % already names another job', p_job_id
                    USING ERRCODE = 'GJ001',
                          DETAIL = format('existing job %s of %s', v_named.id, v_named.action);
            END IF;
            v_adopt := NOT EXISTS (SELECT 1 FROM public.jobs k
                                   WHERE k.action = p_event_name AND k.event_key = p_event_key);
        END IF;
    END IF;

    IF v_adopt THEN
        UPDATE public.jobs j
        SET status = 'queued', queue_job_id = v_queue_id, event_key = p_event_key,
            payload_hash = v_hash, schema_version = v_version, entity_key = p_entity_key,
            event_seq = nextval('job_event_seq'), depends_on = p_depends_on,
            error_code = NULL, error_msg = NULL, started_at = NULL, finished_at = NULL
        WHERE j.id = p_job_id;
    ELSE
        -- A concurrent enqueue of the same key waits here for the other transaction and then
        -- resolves to its job instead of failing.
        INSERT INTO public.jobs AS j (id, action, status, queue_job_id, event_key, payload_hash,
                                      schema_version, entity_key, event_seq, depends_on)
        VALUES (v_job_id, p_event_name, 'queued', v_queue_id, p_event_key, v_hash, v_version,
                p_entity_key, nextval('job_event_seq'), p_depends_on)
        ON CONFLICT (action, event_key) DO NOTHING;

        IF NOT FOUND THEN
            SELECT * INTO STRICT v_existing FROM public.jobs j
            WHERE j.action = p_event_name AND j.event_key = p_event_key;
            IF v_existing.payload_hash IS DISTINCT FROM v_hash THEN
                RAISE EXCEPTION 'event key % of % was already used with a different payload',
                    quote_literal(p_event_key), p_event_name
                    USING ERRCODE = 'GJ001', DETAIL = format('existing job %s', v_existing.id);
            END IF;
            IF v_existing.entity_key IS DISTINCT FROM p_entity_key
               OR v_existing.depends_on IS DISTINCT FROM p_depends_on THEN
                RAISE EXCEPTION 'event key % of % was already used with a different entity key or parent',
                    quote_literal(p_event_key), p_event_name
                    USING ERRCODE = 'GJ001', DETAIL = format('existing job %s', v_existing.id);
            END IF;
            SELECT s.job_id, s.status, s.error_code, s.error_msg, false
            INTO job_id, status, error_code, error_msg, created
            FROM job_public_status(v_existing.id) s;
            RETURN;
        END IF;
    END IF;

    -- Only allow-listed tracing keys are ever stored (the SDK's list, sql/payload_contracts.sql).
    v_trace := '{}';
    IF p_trace IS NOT NULL AND p_trace <> '{}' THEN
        v_trace := queue_trace_filter(p_trace);
    END IF;

    INSERT INTO pgqueuer (id, priority, entrypoint, payload, execute_after, dedupe_key, status)
    VALUES (
        v_queue_id, 0, p_event_name,
        convert_to(jsonb_build_object(
            'job_id', v_job_id,
            'event_name', p_event_name,
            'event_key', p_event_key,
            'payload_version', v_version,
            'payload', p_payload,
            'trace', v_trace
        )::text, 'UTF8'),
        now(), p_event_name || ':' || p_event_key, 'queued'
    );
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
    VALUES (v_queue_id, 'queued', p_event_name, 0);

    job_id := v_job_id;
    status := 'queued';
    created := true;
END
$$;

-- The producers' form: a fresh public id for a new job.
CREATE OR REPLACE FUNCTION enqueue_job(
    p_event_name     text,
    p_payload        jsonb,
    p_event_key      text,
    p_entity_key     text DEFAULT NULL,
    p_depends_on     uuid DEFAULT NULL,
    p_schema_version integer DEFAULT NULL,
    p_trace          jsonb DEFAULT '{}',
    OUT job_id       uuid,
    OUT status       text,
    OUT error_code   text,
    OUT error_msg    text,
    OUT created      boolean
)
LANGUAGE sql
SET search_path = public, pg_temp
AS $$
    SELECT * FROM enqueue_job(p_event_name, p_payload, p_event_key, p_entity_key, p_depends_on,
                              p_schema_version, p_trace, NULL::uuid)
$$;
DROP FUNCTION queue_envelope(uuid, text, text, integer, text, jsonb);
DROP FUNCTION enqueue_fast_path_passes(text, text, jsonb, jsonb, text, jsonpath, text);
