-- A queue row's payload: the envelope the worker reads (genji_sdk.envelope), with the bytes
-- jsonb renders for that object (keys by length, then by bytes), written from the text of its
-- parts. p_payload is the payload's JSON text as jsonb renders it, p_trace the filtered trace.
-- Its body is bound when it is created and it sets nothing, so callers inline it.
CREATE OR REPLACE FUNCTION queue_envelope(
    p_job_id uuid, p_event_name text, p_event_key text, p_version integer, p_payload text,
    p_trace jsonb
) RETURNS bytea
LANGUAGE sql
STABLE PARALLEL SAFE
RETURN convert_to('{"trace": ' || p_trace::text
                  || ', "job_id": "' || p_job_id::text
                  || '", "payload": ' || p_payload
                  || ', "event_key": ' || to_jsonb(p_event_key)::text
                  || ', "event_name": ' || to_jsonb(p_event_name)::text
                  || ', "payload_version": ' || p_version::text || '}',
                  'UTF8');

-- Whether a fresh job may take the one-statement path of enqueue_job and enqueue_jobs: every
-- argument check below passes and the contract's jsonpath accepts the payload (payload_problem's
-- own first decision). NULL when an argument leaves it unknown, which callers take as no. The
-- parent's existence is the caller's to check: a subquery would keep this from being inlined.
-- p_body is the payload's JSON text; the contract's columns are those of payload_contracts.
-- It sets nothing, so callers inline it.
CREATE OR REPLACE FUNCTION enqueue_fast_path_passes(
    p_event_key text, p_entity_key text, p_trace jsonb, p_payload jsonb, p_body text,
    p_fast_check jsonpath, p_fraction_screen text
) RETURNS boolean
LANGUAGE sql
IMMUTABLE PARALLEL SAFE
RETURN NOT text_is_blank(p_event_key)
       AND length(p_event_key) <= 200
       AND (p_entity_key IS NULL
            OR (NOT text_is_blank(p_entity_key) AND length(p_entity_key) <= 200))
       AND (p_trace IS NULL OR jsonb_typeof(p_trace) = 'object')
       AND jsonb_typeof(p_payload) = 'object'
       AND p_fast_check IS NOT NULL
       AND octet_length(p_body) <= payload_max_bytes()
       AND NOT payload_fraction_suspect(p_body, p_fraction_screen)
       AND jsonb_path_match(p_payload, p_fast_check, '{}', true);

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
-- A new job gets no 'queued' log row: its queue row already says it is queued, and nothing
-- reads such a row (queue_begin counts claims since the last requeue, or since the start).
-- Its log begins with its first claim; every later requeue still writes its 'queued' row.
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
    -- The common case in one statement: a fresh job that passes enqueue_fast_path_passes (the
    -- checks below and the contract's jsonpath) and whose parent exists.
    -- Anything else (a key already used, a named job id, any refusal) writes nothing here and
    -- takes the statement-by-statement path, which decides it exactly as before.
    WITH checked AS MATERIALIZED (
        SELECT c.payload_version AS version, b.body
        -- A contract names a registered event (its foreign key), so the registry is not read.
        FROM (SELECT p_payload::text AS body) b
        JOIN payload_contracts c
          ON c.event_name = p_event_name
         AND c.payload_version = coalesce(p_schema_version,
                                          (SELECT max(m.payload_version) FROM payload_contracts m
                                           WHERE m.event_name = p_event_name))
        -- CASE fixes the order: the entity lock is taken only once every check has passed.
        WHERE CASE
            WHEN p_job_id IS NULL
                 AND enqueue_fast_path_passes(p_event_key, p_entity_key, p_trace, p_payload,
                                              b.body, c.fast_check, c.fraction_screen)
                 AND (p_depends_on IS NULL
                      OR EXISTS (SELECT 1 FROM public.jobs d WHERE d.id = p_depends_on))
            THEN p_entity_key IS NULL
                 OR pg_advisory_xact_lock(hashtextextended('genji.entity:' || p_entity_key, 0))::text = ''
            ELSE false
        END
    ), identity AS (
        INSERT INTO public.jobs AS j (id, action, status, queue_job_id, event_key, payload_hash,
                                      schema_version, entity_key, event_seq, depends_on)
        SELECT v_job_id, p_event_name, 'queued', v_queue_id, p_event_key,
               encode(sha256(convert_to(c.body, 'UTF8')), 'hex'), c.version, p_entity_key,
               nextval('job_event_seq'), p_depends_on
        FROM checked c
        ON CONFLICT (action, event_key) DO NOTHING
        RETURNING j.schema_version
    ), queued AS (
        INSERT INTO pgqueuer (id, priority, entrypoint, payload, execute_after, dedupe_key, status)
        SELECT v_queue_id, 0, p_event_name,
               queue_envelope(v_job_id, p_event_name, p_event_key, i.schema_version, c.body,
                   -- Written so that constant folding never filters a trace that is no object.
                   CASE WHEN jsonb_typeof(p_trace) = 'object' AND p_trace <> '{}'
                        THEN queue_trace_filter(p_trace) ELSE '{}'::jsonb END),
               now(), p_event_name || ':' || p_event_key, 'queued'
        FROM identity i CROSS JOIN checked c
    )
    SELECT v_job_id, 'queued', true INTO job_id, status, created FROM identity;
    IF FOUND THEN
        RETURN;
    END IF;

    SELECT * INTO v_type FROM queue_event_types t WHERE t.event_name = p_event_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown event name %', quote_nullable(p_event_name) USING ERRCODE = 'GJ002';
    END IF;
    IF text_is_blank(p_event_key) THEN
        RAISE EXCEPTION 'event_key is required for %', p_event_name USING ERRCODE = 'GJ003';
    END IF;
    IF length(p_event_key) > 200 OR length(p_entity_key) > 200 THEN
        RAISE EXCEPTION 'event_key and entity_key of % must be at most 200 characters', p_event_name
            USING ERRCODE = 'GJ003';
    END IF;
    IF p_entity_key IS NOT NULL AND text_is_blank(p_entity_key) THEN
        RAISE EXCEPTION 'entity_key of % must be NULL or not blank', p_event_name
            USING ERRCODE = 'GJ003';
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
        queue_envelope(v_job_id, p_event_name, p_event_key, v_version, p_payload::text, v_trace),
        now(), p_event_name || ':' || p_event_key, 'queued'
    );

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
