-- Enqueues many jobs in one call, inside the caller's transaction, with the outcome of calling
-- enqueue_job once per item in input order: the same identity and queue rows, the same
-- resolution of keys that already have a job (earlier items of the batch included), the same
-- error (the one the first failing item would raise) and, on any error, nothing enqueued.
-- Item i is (p_event_names[i], p_payloads[i], p_event_keys[i], p_entity_keys[i],
-- p_depends_on[i], p_schema_versions[i]); the three optional arrays may be NULL (all NULL) and
-- every other array must have one element per item. p_trace applies to every item. Returns one
-- row per item, in input order. Errors: those of enqueue_job, and GJ003 for arrays of
-- different lengths. Run it under READ COMMITTED, as enqueue_job.
CREATE OR REPLACE FUNCTION enqueue_jobs(
    p_event_names     text[],
    p_payloads        jsonb[],
    p_event_keys      text[],
    p_entity_keys     text[]    DEFAULT NULL,
    p_depends_on      uuid[]    DEFAULT NULL,
    p_schema_versions integer[] DEFAULT NULL,
    p_trace           jsonb     DEFAULT '{}'
)
RETURNS TABLE (item integer, job_id uuid, status text, error_code text, error_msg text,
               created boolean)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_n        integer := coalesce(cardinality(p_event_names), 0);
    -- Per item, by position: the version, the payload hash, the position of the first item
    -- with the same (event name, event key), and the resolved job.
    v_versions integer[];
    v_hashes   text[];
    v_leaders  integer[];
    v_job_ids  uuid[] := array_fill(NULL::uuid, ARRAY[v_n]);
    v_created  boolean[] := array_fill(false, ARRAY[v_n]);
    v_statuses text[] := array_fill(NULL::text, ARRAY[v_n]);
    v_codes    text[] := array_fill(NULL::text, ARRAY[v_n]);
    v_msgs     text[] := array_fill(NULL::text, ARRAY[v_n]);
    -- The first item that fails its own checks, and its error; items before it are enqueued
    -- (and may raise first), as enqueue_job would have done them.
    v_bad      integer;
    v_bad_code text;
    v_bad_msg  text;
    v_limit    integer;
    v_trace    jsonb;
    v_row      record;
    v_existing public.jobs;
    v_status   record;
BEGIN
    IF coalesce(cardinality(p_payloads), 0) <> v_n OR coalesce(cardinality(p_event_keys), 0) <> v_n
       OR cardinality(p_entity_keys) <> v_n OR cardinality(p_depends_on) <> v_n
       OR cardinality(p_schema_versions) <> v_n THEN
        RAISE EXCEPTION 'enqueue_jobs needs one event name, payload and event key per item, and '
                        'entity keys, parents and versions for none or all of them'
            USING ERRCODE = 'GJ003';
    END IF;
    IF v_n = 0 THEN
        RETURN;
    END IF;

    -- Every item's own checks, in enqueue_job's order, with its version and hash.
    SELECT array_agg(c.version ORDER BY c.ord), array_agg(c.hash ORDER BY c.ord),
           array_agg(c.leader ORDER BY c.ord),
           min(c.ord) FILTER (WHERE c.problem IS NOT NULL),
           (array_agg(c.problem[1] ORDER BY c.ord) FILTER (WHERE c.problem IS NOT NULL))[1],
           (array_agg(c.problem[2] ORDER BY c.ord) FILTER (WHERE c.problem IS NOT NULL))[1]
    INTO v_versions, v_hashes, v_leaders, v_bad, v_bad_code, v_bad_msg
    FROM (
        SELECT i.ord::integer AS ord, i.version,
               min(i.ord) OVER (PARTITION BY i.event_name, i.event_key)::integer AS leader,
               CASE WHEN i.problem IS NULL
                    THEN encode(sha256(convert_to(i.payload::text, 'UTF8')), 'hex') END AS hash,
               i.problem
        FROM (
            SELECT u.*, v.version,
                CASE
                    WHEN t.event_name IS NULL THEN
                        ARRAY['GJ002', format('unknown event name %s', quote_nullable(u.event_name))]
                    WHEN u.event_key IS NULL OR u.event_key = '' THEN
                        ARRAY['GJ003', format('event_key is required for %s', u.event_name)]
                    WHEN length(u.event_key) > 200 OR length(u.entity_key) > 200 THEN
                        ARRAY['GJ003', format('event_key and entity_key of %s must be at most '
                                              '200 characters', u.event_name)]
                    WHEN u.entity_key = '' THEN
                        ARRAY['GJ003', format('entity_key of %s must be NULL or non-empty',
                                              u.event_name)]
                    WHEN p_trace IS NOT NULL AND jsonb_typeof(p_trace) <> 'object' THEN
                        ARRAY['GJ003', format('trace for %s must be a JSON object of header '
                                              'names to strings', u.event_name)]
                    WHEN u.payload IS NULL OR jsonb_typeof(u.payload) <> 'object' THEN
                        ARRAY['GJ003', format('payload for %s must be a JSON object', u.event_name)]
                    WHEN v.problem IS NOT NULL THEN
                        ARRAY['GJ003', format('payload for %s is invalid: %s', u.event_name,
                                              v.problem)]
                    WHEN u.depends_on IS NOT NULL
                         AND NOT EXISTS (SELECT 1 FROM public.jobs j WHERE j.id = u.depends_on) THEN
                        ARRAY['GJ003', format('depends_on job %s does not exist', u.depends_on)]
                END AS problem
            FROM unnest(p_event_names, p_payloads, p_event_keys, p_entity_keys, p_depends_on,
                        p_schema_versions)
                 WITH ORDINALITY AS u(event_name, payload, event_key, entity_key, depends_on,
                                      schema_version, ord)
            LEFT JOIN queue_event_types t ON t.event_name = u.event_name
            LEFT JOIN LATERAL (
                SELECT w.version,
                       CASE WHEN t.event_name IS NOT NULL AND u.event_key <> ''
                                 AND length(u.event_key) <= 200
                                 AND coalesce(length(u.entity_key) BETWEEN 1 AND 200, true)
                                 AND jsonb_typeof(u.payload) = 'object' THEN
                           -- payload_problem's own first decision, without a call per item
                           -- when the contract's jsonpath accepts the payload.
                           CASE WHEN c.fast_check IS NOT NULL
                                     AND octet_length(u.payload::text) <= payload_max_bytes()
                                     AND u.payload::text !~ '\.0+[],}]'
                                     AND jsonb_path_match(u.payload, c.fast_check, '{}', true)
                                THEN NULL
                                ELSE payload_problem(u.event_name, w.version, u.payload) END
                       END AS problem
                FROM (SELECT coalesce(u.schema_version,
                                      (SELECT max(m.payload_version) FROM payload_contracts m
                                       WHERE m.event_name = u.event_name)) AS version) w
                LEFT JOIN payload_contracts c
                       ON c.event_name = u.event_name AND c.payload_version = w.version
            ) v ON true
        ) i
    ) c;

    v_limit := coalesce(v_bad, v_n + 1);

    -- Producers of one entity take turns until commit, in item order (enqueue_job's lock).
    PERFORM pg_advisory_xact_lock(hashtextextended('genji.entity:' || u.entity_key, 0))
    FROM unnest(p_entity_keys) WITH ORDINALITY AS u(entity_key, ord)
    WHERE u.entity_key IS NOT NULL AND u.ord < v_limit
    ORDER BY u.ord;

    -- Only allow-listed tracing keys are ever stored (sql/payload_contracts.sql).
    v_trace := '{}';
    IF p_trace IS NOT NULL AND p_trace <> '{}' THEN
        v_trace := queue_trace_filter(p_trace);
    END IF;

    -- One statement writes every new job: the first item of each key inserts its identity
    -- (queue ids and event_seq follow item order), then its queue row and log row. A
    -- concurrent enqueue of the same key makes it wait, then skip that identity.
    WITH items AS (
        SELECT u.ord::integer AS ord, u.event_name, u.payload, u.event_key, u.entity_key,
               u.depends_on
        FROM unnest(p_event_names, p_payloads, p_event_keys, p_entity_keys, p_depends_on)
             WITH ORDINALITY AS u(event_name, payload, event_key, entity_key, depends_on, ord)
        WHERE u.ord < v_limit AND v_leaders[u.ord::integer] = u.ord
    ), inserted AS (
        INSERT INTO public.jobs AS j (id, action, status, queue_job_id, event_key,
                                      payload_hash, schema_version, entity_key, event_seq,
                                      depends_on)
        SELECT gen_random_uuid(), i.event_name, 'queued', nextval('pgqueuer_id_seq'),
               i.event_key, v_hashes[i.ord], v_versions[i.ord], i.entity_key,
               nextval('job_event_seq'), i.depends_on
        FROM items i
        ORDER BY i.ord
        ON CONFLICT (action, event_key) DO NOTHING
        RETURNING j.id, j.action, j.event_key, j.queue_job_id, j.schema_version
    ), created AS (
        SELECT i.ord, i.payload, n.*
        FROM inserted n JOIN items i ON i.event_name = n.action AND i.event_key = n.event_key
    ), queued AS (
        INSERT INTO pgqueuer (id, priority, entrypoint, payload, execute_after, dedupe_key, status)
        SELECT c.queue_job_id, 0, c.action,
               -- enqueue_job's envelope as jsonb renders it (keys by length, then bytes),
               -- written directly: the same bytes without building a jsonb per item.
               convert_to('{"trace": ' || v_trace::text
                          || ', "job_id": "' || c.id::text
                          || '", "payload": ' || c.payload::text
                          || ', "event_key": ' || to_jsonb(c.event_key)::text
                          || ', "event_name": ' || to_jsonb(c.action)::text
                          || ', "payload_version": ' || c.schema_version::text || '}',
                          'UTF8'),
               now(), c.action || ':' || c.event_key, 'queued'
        FROM created c
        ORDER BY c.queue_job_id
        RETURNING id, entrypoint
    ), logged AS (
        INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
        SELECT q.id, 'queued', q.entrypoint, 0 FROM queued q ORDER BY q.id
    )
    SELECT array_agg(c.id ORDER BY s.i), array_agg(c.id IS NOT NULL ORDER BY s.i)
    INTO v_job_ids, v_created
    FROM generate_series(1, v_n) AS s(i) LEFT JOIN created c ON c.ord = s.i;

    -- Items that resolve to a job: one that existed (committed meanwhile included: a new
    -- statement sees it), or an earlier item of this batch. In item order, as enqueue_job
    -- would have met them.
    FOR v_row IN
        SELECT u.ord::integer AS ord, u.event_name, u.event_key, u.entity_key, u.depends_on,
               v_leaders[u.ord::integer] AS leader
        FROM unnest(p_event_names, p_event_keys, p_entity_keys, p_depends_on)
             WITH ORDINALITY AS u(event_name, event_key, entity_key, depends_on, ord)
        WHERE u.ord < v_limit AND NOT v_created[u.ord::integer]
        ORDER BY u.ord
    LOOP
        IF v_row.leader = v_row.ord THEN
            SELECT * INTO STRICT v_existing FROM public.jobs j
            WHERE j.action = v_row.event_name AND j.event_key = v_row.event_key;
        ELSE
            v_existing.id := v_job_ids[v_row.leader];
            v_existing.payload_hash := v_hashes[v_row.leader];
            v_existing.entity_key := p_entity_keys[v_row.leader];
            v_existing.depends_on := p_depends_on[v_row.leader];
        END IF;
        IF v_existing.payload_hash IS DISTINCT FROM v_hashes[v_row.ord] THEN
            RAISE EXCEPTION 'event key % of % was already used with a different payload',
                quote_literal(v_row.event_key), v_row.event_name
                USING ERRCODE = 'GJ001', DETAIL = format('existing job %s', v_existing.id);
        END IF;
        IF v_existing.entity_key IS DISTINCT FROM v_row.entity_key
           OR v_existing.depends_on IS DISTINCT FROM v_row.depends_on THEN
            RAISE EXCEPTION 'event key % of % was already used with a different entity key or parent',
                quote_literal(v_row.event_key), v_row.event_name
                USING ERRCODE = 'GJ001', DETAIL = format('existing job %s', v_existing.id);
        END IF;
        SELECT * INTO STRICT v_status FROM job_public_status(v_existing.id) s;
        v_job_ids[v_row.ord] := v_status.job_id;
        v_statuses[v_row.ord] := v_status.status;
        v_codes[v_row.ord] := v_status.error_code;
        v_msgs[v_row.ord] := v_status.error_msg;
    END LOOP;

    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION '%', v_bad_msg USING ERRCODE = v_bad_code;
    END IF;

    RETURN QUERY
    SELECT s.i, v_job_ids[s.i], CASE WHEN v_created[s.i] THEN 'queued' ELSE v_statuses[s.i] END,
           v_codes[s.i], v_msgs[s.i], v_created[s.i]
    FROM generate_series(1, v_n) AS s(i)
    ORDER BY s.i;
END
$$;
