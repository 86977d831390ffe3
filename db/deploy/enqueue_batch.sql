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
-- Its statements take arrays, so with the default plan cache mode a small batch is planned
-- afresh at every call; the generic plans suit batches of any size.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    v_n        integer := coalesce(cardinality(p_event_names), 0);
    -- Per item, by position: the version, the payload hash, the position of the first item
    -- with the same (event name, event key), and the resolved job.
    v_versions integer[];
    v_hashes   text[];
    v_leaders  integer[];
    v_job_ids  uuid[];
    v_created  boolean[];
    v_statuses text[];
    v_codes    text[];
    v_msgs     text[];
    -- The first item that fails its own checks, and its error; items before it are enqueued
    -- (and may raise first), as enqueue_job would have done them.
    v_bad      integer;
    v_bad_code text;
    v_bad_msg  text;
    v_limit    integer;
    v_max_size integer;
    v_trace    jsonb;
    v_row      record;
    v_existing public.jobs;
    v_status   record;
    v_constraint text;
    v_retry    boolean := false;
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

    -- Only allow-listed tracing keys are ever stored (sql/payload_contracts.sql). A trace that
    -- is no object is every item's refusal, below.
    v_trace := '{}';
    IF jsonb_typeof(p_trace) = 'object' AND p_trace <> '{}' THEN
        v_trace := queue_trace_filter(p_trace);
    END IF;

    -- The common case in one statement: fresh jobs that pass enqueue_fast_path_passes and
    -- whose parents exist (enqueue_job's one-statement path, for many).
    -- It writes every item or, in its own subtransaction, none: anything else (a key that has
    -- a job or comes twice, which its unique index refuses, or any refusal) takes the
    -- item-by-item path, which decides it exactly as before.
    BEGIN
        WITH items AS MATERIALIZED (
            SELECT u.ord::integer AS ord, u.event_name, u.payload, u.event_key, u.entity_key,
                   u.depends_on, c.payload_version AS version, u.payload::text AS body,
                   c.fast_check, c.fraction_screen
            FROM unnest(p_event_names, p_payloads, p_event_keys, p_entity_keys, p_depends_on,
                        p_schema_versions)
                 WITH ORDINALITY AS u(event_name, payload, event_key, entity_key, depends_on,
                                      schema_version, ord)
            -- The item's contract: its version, or the latest. A contract names a registered
            -- event (its foreign key), so the registry is not read. One probe per item: with a
            -- hash join every call would first read every contract.
            LEFT JOIN LATERAL (
                SELECT c.payload_version, c.fast_check, c.fraction_screen
                FROM payload_contracts c
                WHERE c.event_name = u.event_name
                  AND (u.schema_version IS NULL OR c.payload_version = u.schema_version)
                ORDER BY c.payload_version DESC
                LIMIT 1
            ) c ON true
        ), verdict AS MATERIALIZED (
            -- IS TRUE: an unknown answer (a NULL argument) is a refusal.
            SELECT bool_and((
                       enqueue_fast_path_passes(i.event_key, i.entity_key, p_trace, i.payload,
                                                i.body, i.fast_check, i.fraction_screen)
                       AND (i.depends_on IS NULL
                            OR EXISTS (SELECT 1 FROM public.jobs d WHERE d.id = i.depends_on))
                   ) IS TRUE) AS fast
            FROM items i
        ), locked AS MATERIALIZED (
            -- A volatile select list is computed after the sort: the entity locks are taken in
            -- item order, and only once every item has passed.
            SELECT i.ord, i.event_name, i.event_key, i.entity_key, i.depends_on, i.version,
                   i.body,
                   i.entity_key IS NULL
                   OR pg_advisory_xact_lock(hashtextextended('genji.entity:' || i.entity_key,
                                                             0))::text = '' AS locked
            FROM items i CROSS JOIN verdict v
            WHERE v.fast
            ORDER BY i.ord
        ), fresh AS MATERIALIZED (
            SELECT l.*, gen_random_uuid() AS id, nextval('pgqueuer_id_seq') AS queue_job_id,
                   nextval('job_event_seq') AS event_seq
            FROM locked l
            WHERE l.locked
        ), inserted AS (
            INSERT INTO public.jobs (id, action, status, queue_job_id, event_key, payload_hash,
                                     schema_version, entity_key, event_seq, depends_on)
            SELECT f.id, f.event_name, 'queued', f.queue_job_id, f.event_key,
                   encode(sha256(convert_to(f.body, 'UTF8')), 'hex'), f.version, f.entity_key,
                   f.event_seq, f.depends_on
            FROM fresh f
            RETURNING 1
        ), queued AS (
            INSERT INTO pgqueuer (id, priority, entrypoint, payload, execute_after, dedupe_key,
                                  status)
            SELECT f.queue_job_id, 0, f.event_name,
                   queue_envelope(f.id, f.event_name, f.event_key, f.version, f.body, v_trace),
                   now(), f.event_name || ':' || f.event_key, 'queued'
            FROM fresh f
            -- Every identity is written first, so a key that has a job fails on its own index.
            WHERE (SELECT count(*) FROM inserted) > 0
        )
        SELECT array_agg(f.id ORDER BY f.ord) INTO v_job_ids FROM fresh f;
    EXCEPTION WHEN unique_violation THEN
        v_job_ids := NULL;
    END;
    -- One row per item, written by the loop: a statement's start-up costs more than the loop
    -- for a few items, and about as much for a hundred.
    IF v_job_ids IS NOT NULL THEN
        status := 'queued';
        created := true;
        FOR i IN 1 .. v_n LOOP
            item := i;
            job_id := v_job_ids[i];
            RETURN NEXT;
        END LOOP;
        RETURN;
    END IF;

    -- The item-by-item path's state, set up only when the one statement did not decide.
    v_job_ids := array_fill(NULL::uuid, ARRAY[v_n]);
    v_created := array_fill(false, ARRAY[v_n]);
    v_statuses := array_fill(NULL::text, ARRAY[v_n]);
    v_codes := array_fill(NULL::text, ARRAY[v_n]);
    v_msgs := array_fill(NULL::text, ARRAY[v_n]);
    v_max_size := payload_max_bytes();

    -- Every item's own checks, in enqueue_job's order, with its version and hash. Payloads the
    -- contract's jsonpath accepts are decided here (payload_problem's own first decision); only
    -- the others call payload_problem.
    WITH events AS (
        SELECT t.event_name,
               (SELECT max(m.payload_version) FROM payload_contracts m
                WHERE m.event_name = t.event_name) AS latest
        FROM queue_event_types t
        WHERE t.event_name = ANY (p_event_names)
    ), items AS (
        SELECT u.ord::integer AS ord, e.event_name AS known, u.event_name, u.payload, u.event_key,
               u.entity_key, u.depends_on, coalesce(u.schema_version, e.latest) AS version,
               u.payload::text AS body
        FROM unnest(p_event_names, p_payloads, p_event_keys, p_entity_keys, p_depends_on,
                    p_schema_versions)
             WITH ORDINALITY AS u(event_name, payload, event_key, entity_key, depends_on,
                                  schema_version, ord)
        LEFT JOIN events e ON e.event_name = u.event_name
    ), checked AS (
        SELECT i.ord, i.version,
               min(i.ord) OVER (PARTITION BY i.event_name, i.event_key) AS leader,
               CASE
                   WHEN i.known IS NULL THEN
                       ARRAY['GJ002', format('unknown event name %s', quote_nullable(i.event_name))]
                   WHEN text_is_blank(i.event_key) THEN
                       ARRAY['GJ003', format('event_key is required for %s', i.event_name)]
                   WHEN length(i.event_key) > 200 OR length(i.entity_key) > 200 THEN
                       ARRAY['GJ003', format('event_key and entity_key of %s must be at most '
                                             '200 characters', i.event_name)]
                   WHEN i.entity_key IS NOT NULL AND text_is_blank(i.entity_key) THEN
                       ARRAY['GJ003', format('entity_key of %s must be NULL or not blank',
                                             i.event_name)]
                   WHEN p_trace IS NOT NULL AND jsonb_typeof(p_trace) <> 'object' THEN
                       ARRAY['GJ003', format('trace for %s must be a JSON object of header '
                                             'names to strings', i.event_name)]
                   WHEN i.payload IS NULL OR jsonb_typeof(i.payload) <> 'object' THEN
                       ARRAY['GJ003', format('payload for %s must be a JSON object', i.event_name)]
                   WHEN (c.fast_check IS NOT NULL AND octet_length(i.body) <= v_max_size
                         AND NOT payload_fraction_suspect(i.body, c.fraction_screen)
                         AND jsonb_path_match(i.payload, c.fast_check, '{}', true)) IS NOT TRUE
                        AND payload_problem(i.event_name, i.version, i.payload) IS NOT NULL THEN
                       ARRAY['GJ003', format('payload for %s is invalid: %s', i.event_name,
                                             payload_problem(i.event_name, i.version, i.payload))]
                   WHEN i.depends_on IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM public.jobs j WHERE j.id = i.depends_on) THEN
                       ARRAY['GJ003', format('depends_on job %s does not exist', i.depends_on)]
               END AS problem,
               encode(sha256(convert_to(i.body, 'UTF8')), 'hex') AS hash
        FROM items i
        LEFT JOIN payload_contracts c
               ON c.event_name = i.known AND c.payload_version = i.version
    )
    SELECT array_agg(c.version ORDER BY c.ord), array_agg(c.hash ORDER BY c.ord),
           array_agg(c.leader ORDER BY c.ord),
           min(c.ord) FILTER (WHERE c.problem IS NOT NULL),
           (array_agg(c.problem[1] ORDER BY c.ord) FILTER (WHERE c.problem IS NOT NULL))[1],
           (array_agg(c.problem[2] ORDER BY c.ord) FILTER (WHERE c.problem IS NOT NULL))[1]
    INTO v_versions, v_hashes, v_leaders, v_bad, v_bad_code, v_bad_msg
    FROM checked c;

    v_limit := coalesce(v_bad, v_n + 1);

    -- Producers of one entity take turns until commit, in item order (enqueue_job's lock).
    PERFORM pg_advisory_xact_lock(hashtextextended('genji.entity:' || u.entity_key, 0))
    FROM unnest(p_entity_keys) WITH ORDINALITY AS u(entity_key, ord)
    WHERE u.entity_key IS NOT NULL AND u.ord < v_limit
    ORDER BY u.ord;

    -- One statement writes every new job: the first item of each key takes its ids in item
    -- order and inserts its identity, then its queue row. A plain INSERT costs less than ON
    -- CONFLICT's speculative one. A key that already has a job (one a concurrent enqueue
    -- committed while the statement waited for it included) fails the statement on the key's
    -- unique index; it then runs again without the keys that have a job by then, and the
    -- failed run's ids stay unused. The block takes a subtransaction for each run.
    LOOP
        BEGIN
            WITH items AS MATERIALIZED (
                SELECT u.ord::integer AS ord, u.event_name, u.payload, u.event_key, u.entity_key,
                       u.depends_on, u.hash, u.version, gen_random_uuid() AS id,
                       nextval('pgqueuer_id_seq') AS queue_job_id,
                       nextval('job_event_seq') AS event_seq
                FROM unnest(p_event_names, p_payloads, p_event_keys, p_entity_keys, p_depends_on,
                            v_hashes, v_versions, v_leaders)
                     WITH ORDINALITY AS u(event_name, payload, event_key, entity_key, depends_on,
                                          hash, version, leader, ord)
                WHERE u.ord < v_limit AND u.leader = u.ord
                  AND (NOT v_retry
                       OR NOT EXISTS (SELECT 1 FROM public.jobs j
                                      WHERE j.action = u.event_name AND j.event_key = u.event_key))
            ), inserted AS (
                INSERT INTO public.jobs (id, action, status, queue_job_id, event_key,
                                         payload_hash, schema_version, entity_key, event_seq,
                                         depends_on)
                SELECT i.id, i.event_name, 'queued', i.queue_job_id, i.event_key, i.hash,
                       i.version, i.entity_key, i.event_seq, i.depends_on
                FROM items i
                RETURNING queue_job_id
            ), queued AS (
                INSERT INTO pgqueuer (id, priority, entrypoint, payload, execute_after,
                                      dedupe_key, status)
                SELECT i.queue_job_id, 0, i.event_name,
                       queue_envelope(i.id, i.event_name, i.event_key, i.version,
                                      i.payload::text, v_trace),
                       now(), i.event_name || ':' || i.event_key, 'queued'
                FROM items i
                -- Every identity is written first (the count reads them all), so a key that
                -- has a job fails on its unique index, not on the queue's dedupe key.
                WHERE (SELECT count(*) FROM inserted) > 0
            )
            SELECT array_agg(i.id ORDER BY s.i), array_agg(i.id IS NOT NULL ORDER BY s.i)
            INTO v_job_ids, v_created
            FROM generate_series(1, v_n) AS s(i) LEFT JOIN items i ON i.ord = s.i;
            EXIT;
        EXCEPTION WHEN unique_violation THEN
            GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
            IF v_constraint IS DISTINCT FROM 'jobs_action_event_key_key' THEN
                RAISE;
            END IF;
            -- Under READ COMMITTED each run sees every job committed before it, so each run
            -- again is owed to a key committed meanwhile. A snapshot that does not move sees
            -- all it ever will on the second run: a key that fails that one was committed by a
            -- transaction it cannot see, the serialization failure ON CONFLICT would raise.
            IF v_retry
               AND current_setting('transaction_isolation') IN ('repeatable read', 'serializable')
            THEN
                RAISE EXCEPTION 'could not serialize access due to a concurrent enqueue of an '
                                'event key of this batch'
                    USING ERRCODE = 'serialization_failure';
            END IF;
            v_retry := true;
        END;
    END LOOP;

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
