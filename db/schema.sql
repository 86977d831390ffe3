--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: auth; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA auth;


--
-- Name: completions; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA completions;


--
-- Name: core; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA core;


--
-- Name: lootbox; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA lootbox;


--
-- Name: maps; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA maps;


--
-- Name: notifications; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA notifications;


--
-- Name: playtests; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA playtests;


--
-- Name: tournaments; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA tournaments;


--
-- Name: users; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA users;


--
-- Name: job_status; Type: TYPE; Schema: public; Owner: -
--

CREATE TYPE public.job_status AS ENUM (
    'queued',
    'processing',
    'succeeded',
    'failed',
    'timeout'
);


--
-- Name: payload_contract_node; Type: TYPE; Schema: public; Owner: -
--

CREATE TYPE public.payload_contract_node AS (
	node integer,
	parent integer,
	role text,
	field_name text,
	required boolean,
	json_types text[],
	enum_values text[],
	min_length integer,
	max_length integer,
	pattern text,
	pg_pattern text,
	format text,
	minimum numeric,
	exclusive_minimum numeric,
	maximum numeric,
	exclusive_maximum numeric,
	multiple_of numeric,
	min_items integer,
	max_items integer,
	object_kind text,
	extra_fields text
);


--
-- Name: pgqueuer_status; Type: TYPE; Schema: public; Owner: -
--

CREATE TYPE public.pgqueuer_status AS ENUM (
    'queued',
    'picked',
    'successful',
    'exception',
    'canceled',
    'deleted',
    'failed'
);


--
-- Name: completions_must_beat_personal_best(); Type: FUNCTION; Schema: core; Owner: -
--

CREATE FUNCTION core.completions_must_beat_personal_best() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    best numeric;
BEGIN
    IF NEW.legacy THEN
        RETURN NEW;
    END IF;
    PERFORM 1 FROM core.users WHERE id = NEW.user_id FOR NO KEY UPDATE;
    SELECT min(c.time) INTO best
    FROM core.completions c
    WHERE c.user_id = NEW.user_id AND c.map_id = NEW.map_id AND NOT c.legacy
      AND (c.verified OR c.verified_by IS NULL);
    IF best IS NOT NULL AND NEW.time >= best THEN
        RAISE EXCEPTION 'completion of % is not faster than the personal best %', NEW.time, best
            USING ERRCODE = 'check_violation',
                  CONSTRAINT = 'completions_must_beat_personal_best';
    END IF;
    RETURN NEW;
END
$$;


--
-- Name: difficulty_label(numeric); Type: FUNCTION; Schema: core; Owner: -
--

CREATE FUNCTION core.difficulty_label(raw numeric) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    SELECT (ARRAY[
        'Easy -', 'Easy', 'Easy +',
        'Medium -', 'Medium', 'Medium +',
        'Hard -', 'Hard', 'Hard +',
        'Very Hard -', 'Very Hard', 'Very Hard +',
        'Extreme -', 'Extreme', 'Extreme +',
        'Hell'
    ])[least(floor(raw / 0.625)::integer, 15) + 1]
$$;


--
-- Name: maps_keep_links_symmetric(); Type: FUNCTION; Schema: core; Owner: -
--

CREATE FUNCTION core.maps_keep_links_symmetric() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    partner_link text;
    partner_found boolean;
    pointer text;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.linked_code IS NOT DISTINCT FROM NEW.linked_code
       AND OLD.code = NEW.code THEN
        RETURN NULL;
    END IF;
    IF NEW.linked_code = NEW.code THEN
        RAISE EXCEPTION 'map % cannot be linked to itself', NEW.code
            USING ERRCODE = 'check_violation', CONSTRAINT = 'maps_linked_code_symmetric';
    END IF;

    -- The previous counterpart no longer points back.
    IF TG_OP = 'UPDATE' AND OLD.linked_code IS NOT NULL
       AND OLD.linked_code IS DISTINCT FROM NEW.linked_code THEN
        UPDATE core.maps SET linked_code = NULL
        WHERE code = OLD.linked_code AND linked_code IN (OLD.code, NEW.code);
    END IF;

    IF NEW.linked_code IS NOT NULL THEN
        SELECT linked_code, true INTO partner_link, partner_found
        FROM core.maps WHERE code = NEW.linked_code FOR UPDATE;
        IF partner_found AND partner_link IS NOT NULL AND partner_link <> NEW.code THEN
            RAISE EXCEPTION 'map % cannot be linked to %: % is already linked to %',
                NEW.code, NEW.linked_code, NEW.linked_code, partner_link
                USING ERRCODE = 'check_violation', CONSTRAINT = 'maps_linked_code_symmetric';
        END IF;
        IF partner_found AND partner_link IS NULL THEN
            UPDATE core.maps SET linked_code = NEW.code WHERE code = NEW.linked_code;
        END IF;
        -- A missing counterpart is left to the deferred foreign key.
    END IF;

    -- A map inserted after one that already points at it (the deferred key allows that order).
    SELECT code INTO pointer FROM core.maps
    WHERE linked_code = NEW.code AND code IS DISTINCT FROM NEW.linked_code
    LIMIT 1;
    IF pointer IS NOT NULL THEN
        IF NEW.linked_code IS NOT NULL THEN
            RAISE EXCEPTION 'map % cannot be linked to %: % is already linked to %',
                NEW.code, NEW.linked_code, pointer, NEW.code
                USING ERRCODE = 'check_violation', CONSTRAINT = 'maps_linked_code_symmetric';
        END IF;
        UPDATE core.maps SET linked_code = pointer WHERE id = NEW.id;
    END IF;
    RETURN NULL;
END
$$;


--
-- Name: maps_set_difficulty(); Type: FUNCTION; Schema: core; Owner: -
--

CREATE FUNCTION core.maps_set_difficulty() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.difficulty := core.difficulty_label(NEW.raw_difficulty);
    RETURN NEW;
END
$$;


--
-- Name: set_updated_at(); Type: FUNCTION; Schema: core; Owner: -
--

CREATE FUNCTION core.set_updated_at() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END
$$;


--
-- Name: votes_require_verified_completion(); Type: FUNCTION; Schema: playtests; Owner: -
--

CREATE FUNCTION playtests.votes_require_verified_completion() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM core.completions c
        WHERE c.user_id = NEW.user_id AND c.map_id = NEW.map_id AND c.verified AND NOT c.legacy
    ) THEN
        RAISE EXCEPTION 'user % needs a verified completion of map % to vote', NEW.user_id, NEW.map_id
            USING ERRCODE = 'check_violation',
                  CONSTRAINT = 'votes_require_verified_completion';
    END IF;
    RETURN NEW;
END
$$;


--
-- Name: effect_action_check(uuid, text, text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_action_check(p_job_id uuid, p_effect_key text, p_allowed_events text[]) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_event text;
BEGIN
    IF p_effect_key IS NULL OR p_effect_key = '' OR p_allowed_events IS NULL THEN
        RAISE EXCEPTION 'an effect check needs an effect key and the allowed events'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT j.action INTO v_event FROM jobs j WHERE j.id = p_job_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no job %', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    -- coalesce: a NULL among the allowed events must not let every event through.
    IF NOT coalesce(v_event = ANY (p_allowed_events), false) THEN
        RAISE EXCEPTION 'effect % may not be requested by a % job', quote_literal(p_effect_key),
            v_event USING ERRCODE = 'GJ007';
    END IF;
    RETURN v_event;
END
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: effect_bindings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.effect_bindings (
    job_id uuid NOT NULL,
    effect_key text NOT NULL,
    destination text NOT NULL,
    state text DEFAULT 'intended'::text NOT NULL,
    channel_id bigint,
    message_id bigint,
    thread_id bigint,
    detail jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT effect_bindings_destination_check CHECK ((destination <> ''::text)),
    CONSTRAINT effect_bindings_effect_key_check CHECK ((effect_key <> ''::text)),
    CONSTRAINT effect_bindings_state_check CHECK ((state = ANY (ARRAY['intended'::text, 'uncertain'::text, 'completed'::text, 'skipped'::text, 'failed'::text])))
);


--
-- Name: effect_binding_begin(uuid, text, text, text, bigint, uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_binding_begin(p_job_id uuid, p_effect_key text, p_destination text, p_fingerprint text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) RETURNS TABLE(fresh boolean, binding public.effect_bindings)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row effect_bindings;
BEGIN
    IF coalesce(p_effect_key, '') = '' OR coalesce(p_destination, '') = ''
       OR coalesce(p_fingerprint, '') = '' THEN
        RAISE EXCEPTION 'a binding needs an effect key, a destination and a fingerprint'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM effect_bindings b
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination
    FOR UPDATE;
    IF FOUND THEN
        RETURN QUERY SELECT false, v_row;
        RETURN;
    END IF;
    PERFORM effect_binding_claim_check(
        p_job_id, p_effect_key, p_queue_job_id, p_manager, p_claimed_at);
    INSERT INTO effect_bindings AS b (job_id, effect_key, destination, detail)
    VALUES (p_job_id, p_effect_key, p_destination,
            jsonb_build_object('fingerprint', p_fingerprint, 'stage', 'intended',
                               'intended_by', jsonb_build_object(
                                   'manager', p_manager, 'claimed_at', p_claimed_at)))
    ON CONFLICT DO NOTHING
    RETURNING b.* INTO v_row;
    IF FOUND THEN
        RETURN QUERY SELECT true, v_row;
        RETURN;
    END IF;
    -- A concurrent begin of the same binding committed first.
    SELECT * INTO STRICT v_row FROM effect_bindings b
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination;
    RETURN QUERY SELECT false, v_row;
END
$$;


--
-- Name: effect_binding_claim_check(uuid, text, bigint, uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_binding_claim_check(p_job_id uuid, p_effect_key text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    -- KEY SHARE holds the claim for this short transaction, as effect_receipt_begin does.
    PERFORM 1
    FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id
    WHERE j.id = p_job_id AND q.id = p_queue_job_id AND q.queue_manager_id = p_manager
      AND q.updated = p_claimed_at AND q.status = 'picked'
    FOR KEY SHARE OF q;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % is not claimed as queue job % by % at %; effect % cannot start',
            p_job_id, p_queue_job_id, p_manager, p_claimed_at, quote_literal(p_effect_key)
            USING ERRCODE = 'GJ409';
    END IF;
END
$$;


--
-- Name: effect_binding_complete(uuid, text, text, bigint, bigint, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_binding_complete(p_job_id uuid, p_effect_key text, p_destination text, p_channel_id bigint, p_message_id bigint, p_thread_id bigint) RETURNS public.effect_bindings
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row effect_bindings;
BEGIN
    IF p_message_id IS NULL AND p_thread_id IS NULL THEN
        RAISE EXCEPTION 'a completed send needs a message or thread id' USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM effect_bindings b
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination
    FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'effect % of job % has no binding to %', quote_literal(p_effect_key),
            p_job_id, p_destination USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.state = 'completed' THEN
        IF v_row.channel_id IS NOT DISTINCT FROM p_channel_id
           AND v_row.message_id IS NOT DISTINCT FROM p_message_id
           AND v_row.thread_id IS NOT DISTINCT FROM p_thread_id THEN
            RETURN v_row;
        END IF;
        RAISE EXCEPTION 'effect % of job % to % already completed with other ids',
            quote_literal(p_effect_key), p_job_id, p_destination USING ERRCODE = 'GJ006';
    END IF;
    IF v_row.state NOT IN ('intended', 'uncertain') THEN
        RAISE EXCEPTION 'effect % of job % to % is already %', quote_literal(p_effect_key),
            p_job_id, p_destination, v_row.state USING ERRCODE = 'GJ006';
    END IF;
    UPDATE effect_bindings b
    SET state = 'completed', channel_id = p_channel_id, message_id = p_message_id,
        thread_id = p_thread_id, updated_at = now(),
        detail = coalesce(b.detail, '{}') || jsonb_build_object('stage', 'completed')
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination
    RETURNING b.* INTO v_row;
    RETURN v_row;
END
$$;


--
-- Name: effect_binding_intended_by(jsonb, uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_binding_intended_by(p_detail jsonb, p_manager uuid, p_claimed_at timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT coalesce((p_detail #>> '{intended_by,manager}')::uuid = p_manager
        AND (p_detail #>> '{intended_by,claimed_at}')::timestamptz = p_claimed_at, false)
$$;


--
-- Name: effect_binding_release(uuid, text, text, bigint, uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_binding_release(p_job_id uuid, p_effect_key text, p_destination text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM effect_binding_claim_check(
        p_job_id, p_effect_key, p_queue_job_id, p_manager, p_claimed_at);
    DELETE FROM effect_bindings b
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination
      AND b.state = 'intended'
      AND effect_binding_intended_by(b.detail, p_manager, p_claimed_at);
    RETURN FOUND;
END
$$;


--
-- Name: effect_binding_settle(uuid, text, text, text, jsonb, bigint, uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_binding_settle(p_job_id uuid, p_effect_key text, p_destination text, p_state text, p_detail jsonb, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) RETURNS public.effect_bindings
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row effect_bindings;
BEGIN
    IF p_state IS NULL OR p_state NOT IN ('skipped', 'failed', 'uncertain')
       OR coalesce(p_effect_key, '') = '' OR coalesce(p_destination, '') = '' THEN
        RAISE EXCEPTION 'a binding settles as skipped, failed or uncertain, with an effect key '
            'and a destination' USING ERRCODE = 'GJ003';
    END IF;
    IF p_state <> 'uncertain' THEN
        PERFORM effect_binding_claim_check(
            p_job_id, p_effect_key, p_queue_job_id, p_manager, p_claimed_at);
    END IF;
    SELECT * INTO v_row FROM effect_bindings b
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination
    FOR UPDATE;
    IF FOUND AND v_row.state = p_state THEN
        RETURN v_row;
    END IF;
    -- skipped: nothing was begun; failed: refused when this execution sent; uncertain: any
    -- intent. Declaring someone else's intent not sent needs evidence, which only a
    -- reconciliation has.
    IF FOUND AND NOT (
        (p_state = 'uncertain' AND v_row.state = 'intended')
        OR (p_state = 'failed' AND v_row.state = 'intended'
            AND effect_binding_intended_by(v_row.detail, p_manager, p_claimed_at))
    ) THEN
        RAISE EXCEPTION 'effect % of job % to % is % and cannot be settled as %',
            quote_literal(p_effect_key), p_job_id, p_destination, v_row.state, p_state
            USING ERRCODE = 'GJ006';
    END IF;
    IF NOT FOUND AND p_state = 'uncertain' THEN
        RAISE EXCEPTION 'effect % of job % has no binding to %', quote_literal(p_effect_key),
            p_job_id, p_destination USING ERRCODE = 'GJ404';
    END IF;
    INSERT INTO effect_bindings AS b (job_id, effect_key, destination, state, detail)
    VALUES (p_job_id, p_effect_key, p_destination, p_state,
            coalesce(p_detail, '{}') || jsonb_build_object('stage', p_state))
    ON CONFLICT (job_id, effect_key, destination) DO UPDATE
    SET state = excluded.state, updated_at = now(),
        detail = coalesce(b.detail, '{}') || excluded.detail
    RETURNING b.* INTO v_row;
    RETURN v_row;
END
$$;


--
-- Name: effect_receipt_begin(uuid, text, text, bigint, uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_receipt_begin(p_job_id uuid, p_effect_key text, p_fingerprint text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) RETURNS TABLE(fresh boolean, result jsonb)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_receipt effect_receipts;
BEGIN
    IF p_effect_key IS NULL OR p_effect_key = '' OR p_fingerprint IS NULL OR p_fingerprint = '' THEN
        RAISE EXCEPTION 'effect % of job % needs an effect key and a request fingerprint',
            quote_nullable(p_effect_key), p_job_id USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_receipt FROM effect_receipts r
    WHERE r.job_id = p_job_id AND r.effect_key = p_effect_key;

    IF NOT FOUND THEN
        -- KEY SHARE keeps the claim for this transaction: a stale reclaim (FOR UPDATE SKIP
        -- LOCKED) skips the row and completion waits, while heartbeats still go through.
        PERFORM 1
        FROM public.jobs j JOIN pgqueuer q ON q.id = j.queue_job_id
        WHERE j.id = p_job_id AND q.id = p_queue_job_id AND q.queue_manager_id = p_manager
          AND q.updated = p_claimed_at AND q.status = 'picked'
        FOR KEY SHARE OF q;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'job % is not claimed as queue job % by % at %; effect % cannot start',
                p_job_id, p_queue_job_id, p_manager, p_claimed_at, quote_literal(p_effect_key)
                USING ERRCODE = 'GJ409';
        END IF;

        INSERT INTO effect_receipts (job_id, effect_key, fingerprint)
        VALUES (p_job_id, p_effect_key, p_fingerprint)
        ON CONFLICT DO NOTHING;
        IF FOUND THEN
            RETURN QUERY SELECT true, NULL::jsonb;
            RETURN;
        END IF;
        SELECT * INTO STRICT v_receipt FROM effect_receipts r
        WHERE r.job_id = p_job_id AND r.effect_key = p_effect_key;
    END IF;

    IF v_receipt.fingerprint IS DISTINCT FROM p_fingerprint THEN
        RAISE EXCEPTION 'effect % of job % was recorded with a different request',
            quote_literal(p_effect_key), p_job_id USING ERRCODE = 'GJ006';
    END IF;
    RETURN QUERY SELECT false, v_receipt.result;
END
$$;


--
-- Name: effect_receipt_complete(uuid, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_receipt_complete(p_job_id uuid, p_effect_key text, p_result jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    UPDATE effect_receipts r SET result = p_result, completed_at = now()
    WHERE r.job_id = p_job_id AND r.effect_key = p_effect_key AND r.completed_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no open receipt for effect % of job % in this transaction',
            quote_literal(p_effect_key), p_job_id USING ERRCODE = 'GJ003';
    END IF;
END
$$;


--
-- Name: effect_receipt_require_completion(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.effect_receipt_require_completion() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM effect_receipts r
               WHERE r.job_id = NEW.job_id AND r.effect_key = NEW.effect_key
                 AND r.completed_at IS NULL) THEN
        RAISE EXCEPTION 'effect % of job % was begun but not completed before commit',
            quote_literal(NEW.effect_key), NEW.job_id USING ERRCODE = 'GJ003';
    END IF;
    RETURN NULL;
END
$$;


--
-- Name: payload_fraction_suspect(text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_fraction_suspect(p_body text, p_screen text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((p_screen IS NOT NULL) AND (strpos(p_body, '.0'::text) > 0) AND (p_body ~ '\.0+[],}]'::text) AND (p_body ~ p_screen));


--
-- Name: payload_max_bytes(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_max_bytes() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'public', 'pg_temp'
    RETURN 262144;


--
-- Name: text_is_blank(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.text_is_blank(p_text text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
    SELECT p_text IS NULL OR p_text OPERATOR(pg_catalog.~)
        '^[[:space:]\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]*$'
$_$;


--
-- Name: enqueue_fast_path_passes(text, text, jsonb, jsonb, text, jsonpath, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.enqueue_fast_path_passes(p_event_key text, p_entity_key text, p_trace jsonb, p_payload jsonb, p_body text, p_fast_check jsonpath, p_fraction_screen text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((NOT public.text_is_blank(p_event_key)) AND (length(p_event_key) <= 200) AND ((p_entity_key IS NULL) OR ((NOT public.text_is_blank(p_entity_key)) AND (length(p_entity_key) <= 200))) AND ((p_trace IS NULL) OR (jsonb_typeof(p_trace) = 'object'::text)) AND (jsonb_typeof(p_payload) = 'object'::text) AND (p_fast_check IS NOT NULL) AND (octet_length(p_body) <= public.payload_max_bytes()) AND (NOT public.payload_fraction_suspect(p_body, p_fraction_screen)) AND jsonb_path_match(p_payload, p_fast_check, '{}'::jsonb, true));


--
-- Name: enqueue_job(text, jsonb, text, text, uuid, integer, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.enqueue_job(p_event_name text, p_payload jsonb, p_event_key text, p_entity_key text DEFAULT NULL::text, p_depends_on uuid DEFAULT NULL::uuid, p_schema_version integer DEFAULT NULL::integer, p_trace jsonb DEFAULT '{}'::jsonb, OUT job_id uuid, OUT status text, OUT error_code text, OUT error_msg text, OUT created boolean) RETURNS record
    LANGUAGE sql
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT * FROM enqueue_job(p_event_name, p_payload, p_event_key, p_entity_key, p_depends_on,
                              p_schema_version, p_trace, NULL::uuid)
$$;


--
-- Name: enqueue_job(text, jsonb, text, text, uuid, integer, jsonb, uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.enqueue_job(p_event_name text, p_payload jsonb, p_event_key text, p_entity_key text, p_depends_on uuid, p_schema_version integer, p_trace jsonb, p_job_id uuid, OUT job_id uuid, OUT status text, OUT error_code text, OUT error_msg text, OUT created boolean) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
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


--
-- Name: enqueue_jobs(text[], jsonb[], text[], text[], uuid[], integer[], jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.enqueue_jobs(p_event_names text[], p_payloads jsonb[], p_event_keys text[], p_entity_keys text[] DEFAULT NULL::text[], p_depends_on uuid[] DEFAULT NULL::uuid[], p_schema_versions integer[] DEFAULT NULL::integer[], p_trace jsonb DEFAULT '{}'::jsonb) RETURNS TABLE(item integer, job_id uuid, status text, error_code text, error_msg text, created boolean)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
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


--
-- Name: fn_pgqueuer_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.fn_pgqueuer_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    DECLARE
        to_emit BOOLEAN := false;  -- Flag to decide whether to emit a notification
    BEGIN
        -- Check operation type and set the emit flag accordingly
        IF TG_OP = 'UPDATE' AND OLD IS DISTINCT FROM NEW THEN
            to_emit := true;
        ELSIF TG_OP = 'DELETE' THEN
            to_emit := true;
        ELSIF TG_OP = 'INSERT' THEN
            to_emit := true;
        ELSIF TG_OP = 'TRUNCATE' THEN
            to_emit := true;
        END IF;

        -- Perform notification if the emit flag is set
        IF to_emit THEN
            PERFORM pg_notify(
                'ch_pgqueuer',
                json_build_object(
                    'channel', 'ch_pgqueuer',
                    'operation', lower(TG_OP),
                    'sent_at', NOW(),
                    'table', TG_TABLE_NAME,
                    'type', 'table_changed_event'
                )::text
            );
        END IF;

        -- Return appropriate value based on the operation
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            RETURN NEW;
        ELSIF TG_OP = 'DELETE' THEN
            RETURN OLD;
        ELSE
            RETURN NULL; -- For TRUNCATE and other non-row-specific contexts
        END IF;

    END;
    $$;


--
-- Name: job_alerts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_alerts (
    job_id uuid NOT NULL,
    guild_id bigint,
    channel_id bigint,
    message_id bigint,
    desired_version integer DEFAULT 1 NOT NULL,
    rendered_version integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    state text,
    observed text,
    card_state text DEFAULT 'none'::text NOT NULL,
    card_intent_by uuid,
    card_intent_at timestamp with time zone,
    card_intent_fingerprint text,
    card_intent_version integer,
    card_deleted_at timestamp with time zone,
    CONSTRAINT job_alerts_card_intent_complete CHECK (((card_state = 'none'::text) OR ((card_intent_by IS NOT NULL) AND (card_intent_at IS NOT NULL) AND (card_intent_fingerprint IS NOT NULL) AND (card_intent_version IS NOT NULL)))),
    CONSTRAINT job_alerts_card_message CHECK (((card_state = 'completed'::text) = (message_id IS NOT NULL))),
    CONSTRAINT job_alerts_card_state_check CHECK ((card_state = ANY (ARRAY['none'::text, 'intended'::text, 'completed'::text])))
);


--
-- Name: job_alert_card_begin(uuid, uuid, integer, text, bigint, bigint, interval, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_alert_card_begin(p_job_id uuid, p_holder uuid, p_version integer, p_fingerprint text, p_guild_id bigint, p_channel_id bigint, p_lease interval, p_replaces timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS TABLE(decision text, alert public.job_alerts)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_holder IS NULL OR p_version IS NULL OR p_version < 1
       OR coalesce(p_fingerprint, '') = '' OR p_channel_id IS NULL OR p_lease IS NULL THEN
        RAISE EXCEPTION 'a card intent needs a holder, a version, a fingerprint, a channel '
            'and a lease' USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.card_state = 'completed' THEN
        RETURN QUERY SELECT 'completed'::text, v_row;
        RETURN;
    END IF;
    IF v_row.card_state = 'none' OR v_row.card_intent_at = p_replaces THEN
        UPDATE job_alerts a
        SET card_state = 'intended', card_intent_by = p_holder, card_intent_at = now(),
            card_intent_fingerprint = p_fingerprint, card_intent_version = p_version,
            guild_id = p_guild_id, channel_id = p_channel_id, updated_at = now()
        WHERE a.job_id = p_job_id
        RETURNING a.* INTO v_row;
        RETURN QUERY SELECT 'fresh'::text, v_row;
        RETURN;
    END IF;
    IF v_row.card_intent_by <> p_holder AND v_row.card_intent_at > now() - p_lease THEN
        RETURN QUERY SELECT 'busy'::text, v_row;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'reconcile'::text, v_row;
END
$$;


--
-- Name: job_alert_card_complete(uuid, bigint, bigint, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_alert_card_complete(p_job_id uuid, p_channel_id bigint, p_message_id bigint, p_version integer) RETURNS public.job_alerts
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_channel_id IS NULL OR p_message_id IS NULL OR p_version IS NULL THEN
        RAISE EXCEPTION 'a sent card needs its channel, message id and version'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.card_state = 'none' THEN
        RAISE EXCEPTION 'the card of job % has no recorded intent', p_job_id
            USING ERRCODE = 'GJ006';
    END IF;
    -- Completed with another id: the caller's message is the duplicate, and it sees so.
    IF v_row.card_state = 'completed' AND v_row.message_id <> p_message_id THEN
        RETURN v_row;
    END IF;
    UPDATE job_alerts a
    SET card_state = 'completed', channel_id = p_channel_id, message_id = p_message_id,
        rendered_version = greatest(a.rendered_version, p_version), updated_at = now()
    WHERE a.job_id = p_job_id
    RETURNING a.* INTO v_row;
    RETURN v_row;
END
$$;


--
-- Name: job_alert_card_gone(uuid, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_alert_card_gone(p_job_id uuid, p_message_id bigint) RETURNS public.job_alerts
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_message_id IS NULL THEN
        RAISE EXCEPTION 'a deleted card needs its message id' USING ERRCODE = 'GJ003';
    END IF;
    UPDATE job_alerts a
    SET card_state = 'none', message_id = NULL, card_intent_by = NULL, card_intent_at = NULL,
        card_intent_fingerprint = NULL, card_intent_version = NULL, rendered_version = 0,
        card_deleted_at = now(), updated_at = now()
    WHERE a.job_id = p_job_id AND a.message_id = p_message_id
    RETURNING a.* INTO v_row;
    IF NOT FOUND THEN
        SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
        END IF;
    END IF;
    RETURN v_row;
END
$$;


--
-- Name: job_alert_card_rendered(uuid, bigint, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_alert_card_rendered(p_job_id uuid, p_message_id bigint, p_version integer) RETURNS public.job_alerts
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_message_id IS NULL OR p_version IS NULL THEN
        RAISE EXCEPTION 'a rendered card needs its message id and version'
            USING ERRCODE = 'GJ003';
    END IF;
    UPDATE job_alerts a
    SET rendered_version = greatest(a.rendered_version, p_version), updated_at = now()
    WHERE a.job_id = p_job_id AND a.message_id = p_message_id
    RETURNING a.* INTO v_row;
    IF NOT FOUND THEN
        SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
        END IF;
    END IF;
    RETURN v_row;
END
$$;


--
-- Name: job_alert_episodes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_alert_episodes (
    job_id uuid NOT NULL,
    retry_generation integer NOT NULL,
    state text DEFAULT 'pending'::text NOT NULL,
    reply_message_id bigint,
    error_summary text,
    failed_at timestamp with time zone DEFAULT now() NOT NULL,
    notified_at timestamp with time zone,
    reply_intent_by uuid,
    reply_intent_at timestamp with time zone,
    reply_intent_fingerprint text,
    reply_channel_id bigint,
    CONSTRAINT job_alert_episodes_notified CHECK (((state = 'notified'::text) = (reply_message_id IS NOT NULL))),
    CONSTRAINT job_alert_episodes_retry_generation_check CHECK ((retry_generation >= 0)),
    CONSTRAINT job_alert_episodes_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'uncertain'::text, 'notified'::text])))
);


--
-- Name: job_alert_reply_begin(uuid, integer, uuid, text, bigint, interval, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_alert_reply_begin(p_job_id uuid, p_generation integer, p_holder uuid, p_fingerprint text, p_channel_id bigint, p_lease interval, p_replaces timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS TABLE(decision text, episode public.job_alert_episodes)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row job_alert_episodes;
BEGIN
    IF p_holder IS NULL OR coalesce(p_fingerprint, '') = '' OR p_channel_id IS NULL
       OR p_lease IS NULL THEN
        RAISE EXCEPTION 'a reply intent needs a holder, a fingerprint, a channel and a lease'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alert_episodes e
    WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
    FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert episode for generation %', p_job_id, p_generation
            USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.state = 'notified' THEN
        RETURN QUERY SELECT 'completed'::text, v_row;
        RETURN;
    END IF;
    IF v_row.reply_intent_at IS NULL OR v_row.reply_intent_at = p_replaces THEN
        UPDATE job_alert_episodes e
        SET state = 'pending', reply_intent_by = p_holder, reply_intent_at = now(),
            reply_intent_fingerprint = p_fingerprint, reply_channel_id = p_channel_id
        WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
        RETURNING e.* INTO v_row;
        RETURN QUERY SELECT 'fresh'::text, v_row;
        RETURN;
    END IF;
    IF v_row.state = 'pending' AND v_row.reply_intent_by <> p_holder
       AND v_row.reply_intent_at > now() - p_lease THEN
        RETURN QUERY SELECT 'busy'::text, v_row;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'reconcile'::text, v_row;
END
$$;


--
-- Name: job_alert_reply_complete(uuid, integer, bigint, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_alert_reply_complete(p_job_id uuid, p_generation integer, p_channel_id bigint, p_message_id bigint) RETURNS public.job_alert_episodes
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row job_alert_episodes;
BEGIN
    IF p_channel_id IS NULL OR p_message_id IS NULL THEN
        RAISE EXCEPTION 'a sent reply needs its channel and message id' USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alert_episodes e
    WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
    FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert episode for generation %', p_job_id, p_generation
            USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.state = 'notified' THEN
        RETURN v_row;
    END IF;
    IF v_row.reply_intent_at IS NULL THEN
        RAISE EXCEPTION 'the reply of job % generation % has no recorded intent', p_job_id,
            p_generation USING ERRCODE = 'GJ006';
    END IF;
    UPDATE job_alert_episodes e
    SET state = 'notified', reply_message_id = p_message_id, reply_channel_id = p_channel_id,
        notified_at = now()
    WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
    RETURNING e.* INTO v_row;
    RETURN v_row;
END
$$;


--
-- Name: job_alerts_reconcile(integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_alerts_reconcile(p_limit integer DEFAULT 200) RETURNS TABLE(opened integer, changed integer)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_candidate uuid;
    v_job       public.jobs;
    v_queue     pgqueuer;
    v_public    text;
    v_state     text;
    v_observed  text;
    v_opened    integer := 0;
    v_changed   integer := 0;
BEGIN
    IF p_limit IS NULL OR p_limit < 1 THEN
        RAISE EXCEPTION 'a reconcile needs a positive limit' USING ERRCODE = 'GJ003';
    END IF;

    FOR v_candidate IN
        SELECT j.id FROM pgqueuer q JOIN public.jobs j ON j.queue_job_id = q.id
        WHERE q.status = 'failed'
          AND NOT EXISTS (SELECT 1 FROM job_alert_episodes e
                          WHERE e.job_id = j.id AND e.retry_generation = j.retry_generation)
        ORDER BY q.updated, q.id
        LIMIT p_limit
    LOOP
        -- The row lock recovery takes first: a retry that committed since the scan is seen
        -- here (a new generation, no longer held), so a stale observation opens nothing.
        SELECT * INTO v_job FROM public.jobs j WHERE j.id = v_candidate FOR UPDATE;
        SELECT * INTO v_queue FROM pgqueuer q WHERE q.id = v_job.queue_job_id;
        CONTINUE WHEN NOT FOUND OR v_queue.status <> 'failed';
        INSERT INTO job_alerts (job_id) VALUES (v_job.id) ON CONFLICT (job_id) DO NOTHING;
        INSERT INTO job_alert_episodes (job_id, retry_generation, error_summary, failed_at)
        VALUES (v_job.id, v_job.retry_generation,
                left(coalesce(v_job.error_code, 'held')
                     || coalesce(': ' || nullif(v_job.error_msg, ''), ''), 400),
                coalesce(v_job.held_at, v_queue.updated))
        ON CONFLICT (job_id, retry_generation) DO NOTHING;
        IF FOUND THEN
            v_opened := v_opened + 1;
        END IF;
    END LOOP;

    -- Open alerts follow their job: queued or running after a retry, succeeded, discarded,
    -- held again, in recovery's terms (recovery_job_state). A finished job's public status
    -- (job_public_status, which survives log pruning through the summaries on public.jobs) is
    -- part of what is observed.
    FOR v_job IN
        SELECT j.* FROM job_alerts a JOIN public.jobs j ON j.id = a.job_id
        WHERE a.state IS NULL OR a.state NOT IN ('succeeded', 'discarded')
        ORDER BY a.created_at, a.job_id
    LOOP
        v_state := recovery_job_state(v_job);
        v_public := NULL;
        IF v_state IN ('succeeded', 'discarded', 'needs_inspection') THEN
            BEGIN
                SELECT s.status || ':' || coalesce(s.error_code, '') INTO v_public
                FROM job_public_status(v_job.id) s;
            EXCEPTION WHEN SQLSTATE 'GJ500' THEN
                v_state := 'needs_inspection';
            END;
        END IF;
        v_observed := md5(jsonb_build_array(
            v_state, v_public, v_job.retry_generation, v_job.handler_failures,
            v_job.error_code, v_job.error_msg, v_job.held_at,
            (SELECT coalesce(jsonb_agg(jsonb_build_array(b.effect_key, b.destination, b.state)
                                       ORDER BY b.effect_key, b.destination), '[]')
             FROM effect_bindings b WHERE b.job_id = v_job.id),
            (SELECT coalesce(jsonb_agg(jsonb_build_array(r.effect_key, r.completed_at IS NOT NULL)
                                       ORDER BY r.effect_key), '[]')
             FROM effect_receipts r WHERE r.job_id = v_job.id))::text);
        UPDATE job_alerts a
        SET state = v_state, observed = v_observed, updated_at = now(),
            desired_version = a.desired_version + CASE WHEN a.observed IS NULL THEN 0 ELSE 1 END
        WHERE a.job_id = v_job.id AND a.observed IS DISTINCT FROM v_observed;
        IF FOUND THEN
            v_changed := v_changed + 1;
        END IF;
    END LOOP;

    RETURN QUERY SELECT v_opened, v_changed;
END
$$;


--
-- Name: job_details(uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_details(p_job_id uuid) RETURNS TABLE(job_id uuid, event_name text, state text, status text, retry_generation integer, handler_failures integer, attempts integer, error_code text, error_msg text, event_key text, entity_key text, created_at timestamp with time zone, held_at timestamp with time zone, uncertain boolean, retry_enabled boolean, receipts jsonb, bindings jsonb, actions jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
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


--
-- Name: job_list(text, text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_list(p_state text, p_entrypoint text, p_limit integer) RETURNS TABLE(job_id uuid, event_name text, state text, uncertain boolean, retry_generation integer, handler_failures integer, error_code text, error_msg text, created_at timestamp with time zone, held_at timestamp with time zone)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
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


--
-- Name: job_list_finished(text, text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_list_finished(p_state text, p_entrypoint text, p_limit integer) RETURNS TABLE(job_id uuid, event_name text, state text, uncertain boolean, retry_generation integer, handler_failures integer, error_code text, error_msg text, created_at timestamp with time zone, held_at timestamp with time zone, finished_at timestamp with time zone)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
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


--
-- Name: job_lookup(text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_lookup(p_ref text, p_limit integer) RETURNS TABLE(job_id uuid, queue_job_id bigint, event_name text, created_at timestamp with time zone)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
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
$_$;


--
-- Name: job_public_status(uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_public_status(p_job_id uuid) RETURNS TABLE(job_id uuid, status text, error_code text, error_msg text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_job      public.jobs;
    v_active   pgqueuer_status;
    v_terminal record;
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.id = p_job_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % not found', p_job_id USING ERRCODE = 'GJ404';
    END IF;

    -- Legacy rows keep the status they recorded.
    IF v_job.queue_job_id IS NULL THEN
        RETURN QUERY SELECT v_job.id, v_job.status::text, v_job.error_code, v_job.error_msg;
        RETURN;
    END IF;

    -- The active row wins over any earlier failure logs.
    SELECT q.status INTO v_active FROM pgqueuer q WHERE q.id = v_job.queue_job_id;
    IF FOUND THEN
        CASE v_active
            WHEN 'queued' THEN
                RETURN QUERY SELECT v_job.id, 'queued'::text, NULL::text, NULL::text;
            WHEN 'picked' THEN
                RETURN QUERY SELECT v_job.id, 'processing'::text, NULL::text, NULL::text;
            WHEN 'failed' THEN
                RETURN QUERY SELECT v_job.id, 'failed'::text,
                    coalesce(v_job.error_code, 'held'), coalesce(v_job.error_msg, 'Job is held.');
            ELSE
                RAISE EXCEPTION 'job % has an active queue row in terminal state %', p_job_id, v_active
                    USING ERRCODE = 'GJ500';
        END CASE;
        RETURN;
    END IF;

    SELECT l.status, l.traceback INTO v_terminal
    FROM pgqueuer_log l
    WHERE l.job_id = v_job.queue_job_id
      AND l.status IN ('successful', 'exception', 'canceled', 'deleted')
    ORDER BY l.created DESC, l.id DESC
    LIMIT 1;
    IF FOUND THEN
        RETURN QUERY SELECT v_job.id, s.status, s.error_code, s.error_msg
        FROM job_terminal_summary(v_terminal.status::text, v_terminal.traceback) s;
        RETURN;
    END IF;

    -- Logs were pruned: the summary written in the same transaction is authoritative.
    IF v_job.summarized_at IS NOT NULL THEN
        RETURN QUERY SELECT v_job.id, v_job.status::text, v_job.error_code, v_job.error_msg;
        RETURN;
    END IF;

    RAISE EXCEPTION 'job % has neither an active queue row, a terminal log nor a summary', p_job_id
        USING ERRCODE = 'GJ500', HINT = 'reconcile queue_job_id against pgqueuer and pgqueuer_log';
END
$$;


--
-- Name: job_terminal_summary(text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.job_terminal_summary(p_log_status text, p_traceback jsonb, OUT status text, OUT error_code text, OUT error_msg text) RETURNS record
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT CASE WHEN p_log_status = 'successful' THEN 'succeeded' ELSE 'failed' END,
           CASE WHEN p_log_status = 'successful' THEN NULL
                ELSE left(coalesce(p_traceback ->> 'exception_type', p_log_status), 100) END,
           CASE WHEN p_log_status = 'successful' THEN NULL
                ELSE left(coalesce(p_traceback ->> 'exception_message', 'Job was discarded.'), 300)
           END;
$$;


--
-- Name: payload_current_version(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_current_version(p_event_name text) RETURNS integer
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT max(c.payload_version) FROM payload_contracts c WHERE c.event_name = p_event_name;
$$;


--
-- Name: payload_fast_check(public.payload_contract_node[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_fast_check(p_nodes public.payload_contract_node[]) RETURNS jsonpath
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
    SELECT ('strict exists ($ ? (' || predicate || '))'
            || ' && !exists ($.**{65 to last})'
            || ' && !exists ($.** ? (@.type() == "number" && (@ >= 1e308 || @ <= -1e308)))')::jsonpath
    FROM (SELECT CASE WHEN payload_nodes_problem(p_nodes) IS NULL
                      THEN nullif(payload_fast_predicate(p_nodes, 0), '') END AS predicate) p;
$_$;


--
-- Name: payload_fast_predicate(public.payload_contract_node[], integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_fast_predicate(p_nodes public.payload_contract_node[], p_at integer) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    v_node  payload_contract_node := p_nodes[p_at + 1];
    v_child payload_contract_node;
    v_alts  text[] := '{}';
    v_parts text[];
    v_sub   text;
    v_type  text;
    v_key   text;
    v_keys  text[];
BEGIN
    IF v_node.json_types IS NULL THEN
        RETURN '';
    END IF;
    FOREACH v_type IN ARRAY v_node.json_types LOOP
        -- @ == @.floor() holds for numbers alone (on any other type it is an error, so
        -- unknown), which makes a type test for integers redundant.
        v_parts := CASE WHEN v_type = 'integer' THEN '{}'
                        ELSE ARRAY[format('@.type() == %s', to_jsonb(v_type))] END;
        CASE v_type
        WHEN 'integer' THEN
            v_parts := v_parts
                || '@ == @.floor()'::text
                || CASE WHEN v_node.minimum IS NOT NULL THEN '@ >= ' || v_node.minimum END
                || CASE WHEN v_node.exclusive_minimum IS NOT NULL
                        THEN '@ > ' || v_node.exclusive_minimum END
                || CASE WHEN v_node.maximum IS NOT NULL THEN '@ <= ' || v_node.maximum END
                || CASE WHEN v_node.exclusive_maximum IS NOT NULL
                        THEN '@ < ' || v_node.exclusive_maximum END
                || CASE WHEN v_node.multiple_of IS NOT NULL
                        THEN '@ % ' || v_node.multiple_of || ' == 0' END;
        WHEN 'number' THEN
            v_parts := v_parts
                || format('@ < %s && @ > -%s', payload_float_overflow(), payload_float_overflow());
        WHEN 'string' THEN
            IF v_node.format IS NOT NULL OR v_node.min_length > 255 OR v_node.max_length > 255 THEN
                RETURN NULL;
            END IF;
            IF v_node.enum_values IS NOT NULL THEN
                v_parts := v_parts
                    || ('(' || (SELECT string_agg('@ == ' || to_jsonb(e)::text, ' || ')
                                FROM unnest(v_node.enum_values) e) || ')');
            END IF;
            IF v_node.min_length IS NOT NULL OR v_node.max_length IS NOT NULL THEN
                v_parts := v_parts || format('@ like_regex %s flag "s"', to_jsonb(
                    format('^.{%s,%s}$', coalesce(v_node.min_length, 0), v_node.max_length)));
            END IF;
            IF v_node.pg_pattern IS NOT NULL THEN
                v_parts := v_parts || format('@ like_regex %s flag "s"', to_jsonb(v_node.pg_pattern));
            END IF;
        WHEN 'array' THEN
            v_parts := v_parts
                || CASE WHEN v_node.min_items IS NOT NULL THEN '@.size() >= ' || v_node.min_items END
                || CASE WHEN v_node.max_items IS NOT NULL THEN '@.size() <= ' || v_node.max_items END;
            v_child := p_nodes[p_at + 2];  -- the items' node, if it is this node's child
            IF v_child.parent IS NOT DISTINCT FROM p_at THEN
                v_sub := payload_fast_predicate(p_nodes, p_at + 1);
                IF v_sub IS NULL THEN
                    RETURN NULL;
                ELSIF v_sub <> '' THEN
                    v_parts := v_parts
                        || format('!exists (@[*] ? ((%s) is unknown || !(%s)))', v_sub, v_sub);
                END IF;
            END IF;
        WHEN 'object' THEN
            IF v_node.object_kind = 'map' THEN
                IF v_node.min_items IS NOT NULL OR v_node.max_items IS NOT NULL THEN
                    RETURN NULL;
                END IF;
                v_child := p_nodes[p_at + 2];  -- the values' node, if it is this node's child
                IF v_child.parent IS NOT DISTINCT FROM p_at THEN
                    v_sub := payload_fast_predicate(p_nodes, p_at + 1);
                    IF v_sub IS NULL THEN
                        RETURN NULL;
                    ELSIF v_sub <> '' THEN
                        v_sub := format('exists (@.value ? (%s))', v_sub);
                        v_parts := v_parts || format(
                            '!exists (@.keyvalue() ? ((%s) is unknown || !(%s)))', v_sub, v_sub);
                    END IF;
                END IF;
            ELSE
                v_keys := '{}';
                FOR i IN p_at + 1 .. cardinality(p_nodes) - 1 LOOP
                    v_child := p_nodes[i + 1];
                    EXIT WHEN v_child.parent < p_at;
                    CONTINUE WHEN v_child.parent > p_at;
                    v_keys := v_keys || v_child.field_name;
                    v_key := to_jsonb(v_child.field_name)::text;
                    v_sub := payload_fast_predicate(p_nodes, i);
                    IF v_sub IS NULL THEN
                        RETURN NULL;
                    END IF;
                    v_sub := CASE WHEN v_sub = '' THEN format('exists (@.%s)', v_key)
                                  ELSE format('exists (@.%s ? (%s))', v_key, v_sub) END;
                    -- In strict mode @."k" of an absent key is an error, so exists() of it is
                    -- unknown, and of a present one true: that tests absence without listing
                    -- every key of the object, as @.keyvalue() would.
                    v_parts := v_parts || CASE
                        WHEN v_child.required THEN v_sub
                        ELSE format('(%s || (exists (@.%s)) is unknown)', v_sub, v_key)
                        END;
                END LOOP;
                IF v_node.extra_fields = 'forbid' THEN
                    v_parts := v_parts || format('!exists (@.keyvalue()%s)',
                        (SELECT coalesce(' ? (' || string_agg('@.key != ' || to_jsonb(k)::text, ' && ')
                                         || ')', '')
                         FROM unnest(v_keys) k));
                END IF;
            END IF;
        ELSE
            NULL;  -- null and boolean: the type test is all
        END CASE;
        v_alts := v_alts || ('(' || array_to_string(v_parts, ' && ') || ')');
    END LOOP;
    RETURN array_to_string(v_alts, ' || ');
END
$_$;


--
-- Name: payload_float_overflow(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_float_overflow() RETURNS numeric
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'public', 'pg_temp'
    RETURN (((2)::numeric ^ (1024)::numeric) - ((2)::numeric ^ (970)::numeric));


--
-- Name: payload_fraction_screen(public.payload_contract_node[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_fraction_screen(p_nodes public.payload_contract_node[]) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
    SELECT CASE
        WHEN count(*) = 0 THEN NULL
        WHEN bool_or(n.role <> 'field') THEN '\.0+[],}]'
        -- Keys as JSON text with the regex's special characters escaped: a backslash before
        -- one of them means the character itself, whatever the locale.
        ELSE '(?:' || string_agg(DISTINCT regexp_replace(to_jsonb(n.field_name)::text,
                                                         '([.^$|?*+()[\]{}\\])', '\\\1', 'g'), '|')
             || '): -?[0-9]+\.0+[,}]'
    END
    FROM unnest(p_nodes) n
    WHERE 'integer' = ANY (n.json_types) AND NOT 'number' = ANY (n.json_types);
$_$;


--
-- Name: payload_is_datetime(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_is_datetime(p_text text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    v_year   integer;
    v_month  integer;
    v_day    integer;
    v_tail   text;
    v_offset text;
BEGIN
    IF p_text !~ ('^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}'
                  '(\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})?$') THEN
        RETURN false;
    END IF;
    v_year := substr(p_text, 1, 4)::integer;
    v_month := substr(p_text, 6, 2)::integer;
    v_day := substr(p_text, 9, 2)::integer;
    IF v_year < 1 OR v_month NOT BETWEEN 1 AND 12 OR v_day < 1
       OR v_day > extract(day FROM make_date(v_year, v_month, 1) + interval '1 month - 1 day')
       OR substr(p_text, 12, 2)::integer > 23 OR substr(p_text, 15, 2)::integer > 59
       OR substr(p_text, 18, 2)::integer > 59 THEN
        RETURN false;
    END IF;
    v_tail := substr(p_text, 20);  -- fraction and offset, either possibly empty
    v_offset := substr(v_tail, greatest(strpos(v_tail, '+'), strpos(v_tail, '-')));
    IF v_offset ~ '^[+-]' AND (substr(v_offset, 2, 2)::integer > 23
                               OR right(v_offset, 2)::integer > 59) THEN
        RETURN false;
    END IF;
    -- A fraction that rounds up to the next second must not leave year 9999.
    RETURN NOT (left(p_text, 10) = '9999-12-31' AND substr(p_text, 12, 8) = '23:59:59'
                AND substr(v_tail, 1, 8) ~ '^\.9{6}[5-9]');
END
$_$;


--
-- Name: payload_nodes(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_nodes(p_nodes jsonb) RETURNS public.payload_contract_node[]
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_nodes payload_contract_node[] := '{}';
    v_node  payload_contract_node;
    v_given jsonb;
BEGIN
    FOR v_given IN
        SELECT e.value FROM jsonb_array_elements(p_nodes) WITH ORDINALITY e ORDER BY e.ordinality
    LOOP
        v_node := jsonb_populate_record(NULL::payload_contract_node, v_given);
        IF jsonb_strip_nulls(to_jsonb(v_node)) <> v_given THEN
            RAISE EXCEPTION 'contract node % has keys or values payload_contract_node cannot hold',
                v_given;
        END IF;
        v_node.required := coalesce(v_node.required, false);
        v_nodes := v_nodes || v_node;
    END LOOP;
    RETURN v_nodes;
END
$$;


--
-- Name: payload_nodes_problem(public.payload_contract_node[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_nodes_problem(p_nodes public.payload_contract_node[]) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT coalesce(
        (SELECT format('node %s: %s', n.node, problem)
         FROM unnest(p_nodes) WITH ORDINALITY AS n
         LEFT JOIN LATERAL unnest(p_nodes) WITH ORDINALITY AS up ON up.node = n.parent
         CROSS JOIN LATERAL (SELECT CASE
             WHEN n.node IS DISTINCT FROM (n.ordinality - 1)::integer THEN 'numbered out of order'
             WHEN (n.node = 0) <> (n.role = 'payload') OR (n.node = 0) <> (n.parent IS NULL)
                 THEN 'only node 0, the payload, has no parent'
             WHEN n.parent >= n.node THEN 'its parent comes after it'
             WHEN EXISTS (SELECT 1 FROM unnest(p_nodes) b
                          WHERE b.node > n.parent AND b.node < n.node AND b.parent < n.parent)
                 THEN 'not numbered depth first'
             WHEN n.role NOT IN ('payload', 'field', 'item', 'value') THEN 'unknown role'
             WHEN (n.role = 'field') <> (n.field_name IS NOT NULL)
                 THEN 'a field_name belongs to fields alone'
             WHEN n.role = 'field' AND up.object_kind IS DISTINCT FROM 'struct'
                 THEN 'a field under a node without declared fields'
             WHEN n.role = 'item' AND NOT 'array' = ANY (up.json_types)
                 THEN 'an item under a node that is not an array'
             WHEN n.role = 'value' AND up.object_kind IS DISTINCT FROM 'map'
                 THEN 'a value under a node that is not a map'
             WHEN n.role IN ('item', 'value')
                  AND (SELECT count(*) FROM unnest(p_nodes) s WHERE s.parent = n.parent) > 1
                 THEN 'an array or map has more than one child'
             WHEN NOT n.json_types <@ ARRAY['null', 'boolean', 'integer', 'number', 'string',
                                            'array', 'object']
                 THEN 'unknown JSON type'
             WHEN ('array' = ANY (n.json_types) AND 'object' = ANY (n.json_types))
                  OR ('integer' = ANY (n.json_types) AND 'number' = ANY (n.json_types))
                 THEN 'ambiguous JSON types'
             WHEN ('object' = ANY (n.json_types)) <> (n.object_kind IS NOT NULL)
                  OR n.object_kind NOT IN ('struct', 'map')
                 THEN 'objects need an object_kind of struct or map'
             WHEN (n.object_kind = 'struct') <> (n.extra_fields IS NOT NULL)
                  OR n.extra_fields NOT IN ('ignore', 'forbid')
                 THEN 'structs need extra_fields ignore or forbid'
             WHEN (n.pattern IS NULL) <> (n.pg_pattern IS NULL) THEN 'pattern without pg_pattern'
             WHEN n.format NOT IN ('date-time') THEN 'unknown format'
             WHEN n.multiple_of <= 0 THEN 'multiple_of must be positive'
             END AS problem) c
         WHERE c.problem IS NOT NULL
         ORDER BY n.ordinality
         LIMIT 1),
        CASE WHEN cardinality(p_nodes) > 0 THEN NULL
             ELSE 'a contract needs at least the payload node' END);
$$;


--
-- Name: payload_plain_json_problem(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_plain_json_problem(p_payload jsonb) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    v_number jsonb;
BEGIN
    IF jsonb_path_exists(p_payload, 'strict $.**{65 to last}') THEN
        RETURN '$: values are nested more than 64 levels deep';
    END IF;
    SELECT n INTO v_number
    FROM jsonb_path_query(p_payload, 'strict $.** ? (@.type() == "number")') n
    WHERE strpos(n::text, '.') > 0 AND abs(n::numeric) >= payload_float_overflow()
    LIMIT 1;
    IF FOUND THEN
        RETURN format('$: the number %s... is out of range for a float', left(v_number::text, 24));
    END IF;
    RETURN NULL;
END
$_$;


--
-- Name: payload_problem(text, integer, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_problem(p_event_name text, p_version integer, p_payload jsonb) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    v_fast   jsonpath;
    v_screen text;
    v_text   text;
BEGIN
    SELECT c.fast_check, c.fraction_screen INTO v_fast, v_screen FROM payload_contracts c
    WHERE c.event_name = p_event_name AND c.payload_version = p_version;
    IF NOT FOUND THEN
        RETURN format('version %s is not supported (supported: %s)',
            coalesce(p_version::text, 'NULL'),
            coalesce((SELECT string_agg(c.payload_version::text, ', ' ORDER BY c.payload_version)
                      FROM payload_contracts c WHERE c.event_name = p_event_name), 'none'));
    END IF;
    v_text := p_payload::text;
    IF octet_length(v_text) > payload_max_bytes() THEN
        RETURN format('$: %s bytes of JSON text, more than the limit of %s bytes',
            octet_length(v_text), payload_max_bytes());
    END IF;
    IF v_fast IS NOT NULL
       AND NOT payload_fraction_suspect(v_text, v_screen)
       AND jsonb_path_match(p_payload, v_fast, '{}', true) IS TRUE THEN
        RETURN NULL;
    END IF;
    RETURN payload_walk_problem(p_event_name, p_version, p_payload);
END
$_$;


--
-- Name: payload_walk_problem(text, integer, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.payload_walk_problem(p_event_name text, p_version integer, p_payload jsonb) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    v_nodes   payload_contract_node[];
    v_count   integer;
    v_problem text;
    -- Values still to check: contract node number, value (NULL for an absent field), path.
    v_todo_node  integer[] := ARRAY[0];
    v_todo_value jsonb[] := ARRAY[p_payload];
    v_todo_path  text[] := ARRAY['$'];
    v_next    integer := 0;
    v_at      integer;
    v_node    payload_contract_node;
    v_child   payload_contract_node;
    v_value   jsonb;
    v_path    text;
    v_kind    text;
    v_text    text;
    v_number  numeric;
    v_size    bigint;
    v_names   text[];
    v_key     text;
BEGIN
    SELECT c.nodes INTO v_nodes FROM payload_contracts c
    WHERE c.event_name = p_event_name AND c.payload_version = p_version;
    IF NOT FOUND THEN
        RETURN format('version %s is not supported (supported: %s)',
            coalesce(p_version::text, 'NULL'),
            coalesce((SELECT string_agg(c.payload_version::text, ', ' ORDER BY c.payload_version)
                      FROM payload_contracts c WHERE c.event_name = p_event_name), 'none'));
    END IF;
    v_count := cardinality(v_nodes);
    -- A cheap screen; only a payload that is deeply nested or holds a huge number pays for
    -- the exact check.
    IF jsonb_path_match(p_payload, 'exists ($.**{65 to last})
            || exists ($.** ? (@.type() == "number" && (@ >= 1e308 || @ <= -1e308)))') THEN
        v_problem := payload_plain_json_problem(p_payload);
        IF v_problem IS NOT NULL THEN
            RETURN v_problem;
        END IF;
    END IF;

    WHILE v_next < cardinality(v_todo_node) LOOP
        v_next := v_next + 1;
        v_at := v_todo_node[v_next];
        v_value := v_todo_value[v_next];
        v_path := v_todo_path[v_next];
        v_node := v_nodes[v_at + 1];

        IF v_value IS NULL THEN
            IF v_node.required THEN
                RETURN v_path || ': required field is missing';
            END IF;
            CONTINUE;
        END IF;
        CONTINUE WHEN v_node.json_types IS NULL;  -- any JSON value

        -- JSON has one number type; msgspec tells an integer by the absence of a fraction.
        v_kind := jsonb_typeof(v_value);
        IF v_kind = 'number' AND 'integer' = ANY (v_node.json_types) THEN
            IF strpos(v_value::text, '.') = 0 THEN
                v_kind := 'integer';
            ELSIF NOT 'number' = ANY (v_node.json_types) THEN
                RETURN format('%s: expected %s, got a number with a fraction',
                    v_path, array_to_string(v_node.json_types, ' or '));
            END IF;
        END IF;
        IF NOT v_kind = ANY (v_node.json_types) THEN
            RETURN format('%s: expected %s, got %s',
                v_path, array_to_string(v_node.json_types, ' or '), v_kind);
        END IF;

        CASE v_kind
        WHEN 'string' THEN
            CONTINUE WHEN num_nonnulls(v_node.enum_values, v_node.min_length, v_node.max_length,
                                       v_node.pg_pattern, v_node.format) = 0;
            v_text := v_value #>> '{}';
            IF NOT v_text = ANY (v_node.enum_values) THEN
                RETURN format('%s: must be one of %s', v_path, to_jsonb(v_node.enum_values));
            END IF;
            v_size := char_length(v_text);
            IF v_size < v_node.min_length THEN
                RETURN format('%s: %s characters, fewer than the minimum of %s',
                    v_path, v_size, v_node.min_length);
            ELSIF v_size > v_node.max_length THEN
                RETURN format('%s: %s characters, more than the maximum of %s',
                    v_path, v_size, v_node.max_length);
            ELSIF v_text !~ v_node.pg_pattern THEN
                RETURN format('%s: does not match the pattern %s', v_path, v_node.pattern);
            ELSIF v_node.format = 'date-time' AND NOT payload_is_datetime(v_text) THEN
                RETURN format('%s: not an RFC 3339 date-time', v_path);
            END IF;
        WHEN 'integer' THEN
            CONTINUE WHEN num_nonnulls(v_node.minimum, v_node.exclusive_minimum, v_node.maximum,
                                       v_node.exclusive_maximum, v_node.multiple_of) = 0;
            v_number := v_value::numeric;
            IF v_number < v_node.minimum THEN
                RETURN format('%s: %s is less than the minimum %s',
                    v_path, v_number, v_node.minimum);
            ELSIF v_number <= v_node.exclusive_minimum THEN
                RETURN format('%s: %s is not greater than %s',
                    v_path, v_number, v_node.exclusive_minimum);
            ELSIF v_number > v_node.maximum THEN
                RETURN format('%s: %s is more than the maximum %s',
                    v_path, v_number, v_node.maximum);
            ELSIF v_number >= v_node.exclusive_maximum THEN
                RETURN format('%s: %s is not less than %s',
                    v_path, v_number, v_node.exclusive_maximum);
            ELSIF v_number % v_node.multiple_of <> 0 THEN
                RETURN format('%s: %s is not a multiple of %s',
                    v_path, v_number, v_node.multiple_of);
            END IF;
        WHEN 'number' THEN
            IF abs(v_value::numeric) >= payload_float_overflow() THEN
                RETURN format('%s: out of range for a float', v_path);
            END IF;
        WHEN 'array' THEN
            v_size := jsonb_array_length(v_value);
            IF v_size < v_node.min_items THEN
                RETURN format('%s: %s items, fewer than the minimum of %s',
                    v_path, v_size, v_node.min_items);
            ELSIF v_size > v_node.max_items THEN
                RETURN format('%s: %s items, more than the maximum of %s',
                    v_path, v_size, v_node.max_items);
            END IF;
            -- Every item is checked against the one child node, the next node.
            FOR i IN 0 .. v_size - 1 LOOP
                v_todo_node := v_todo_node || (v_at + 1);
                v_todo_value := v_todo_value || (v_value -> i);
                v_todo_path := v_todo_path || format('%s[%s]', v_path, i);
            END LOOP;
        WHEN 'object' THEN
            IF v_node.object_kind = 'struct' THEN
                -- The fields are the nodes of this subtree whose parent is this node.
                v_names := '{}';
                FOR i IN v_at + 1 .. v_count - 1 LOOP
                    v_child := v_nodes[i + 1];
                    EXIT WHEN v_child.parent < v_at;
                    CONTINUE WHEN v_child.parent > v_at;
                    v_names := v_names || v_child.field_name;
                    v_todo_node := v_todo_node || i;
                    v_todo_value := v_todo_value || (v_value -> v_child.field_name);
                    v_todo_path := v_todo_path || (v_path || '.' || v_child.field_name);
                END LOOP;
                IF v_node.extra_fields = 'forbid' THEN
                    SELECT k INTO v_key FROM jsonb_object_keys(v_value) k
                    WHERE k <> ALL (v_names) ORDER BY k LIMIT 1;
                    IF FOUND THEN
                        RETURN format('%s.%s: unknown field', v_path, v_key);
                    END IF;
                END IF;
            ELSE
                IF v_node.min_items IS NOT NULL OR v_node.max_items IS NOT NULL THEN
                    SELECT count(*) INTO v_size FROM jsonb_object_keys(v_value);
                    IF v_size < v_node.min_items THEN
                        RETURN format('%s: %s entries, fewer than the minimum of %s',
                            v_path, v_size, v_node.min_items);
                    ELSIF v_size > v_node.max_items THEN
                        RETURN format('%s: %s entries, more than the maximum of %s',
                            v_path, v_size, v_node.max_items);
                    END IF;
                END IF;
                -- A map's values share its one child node, if it constrains them at all.
                CONTINUE WHEN v_at + 1 >= v_count
                              OR (v_nodes[v_at + 2]).parent IS DISTINCT FROM v_at;
                FOR v_key IN SELECT k FROM jsonb_object_keys(v_value) k ORDER BY k LOOP
                    v_todo_node := v_todo_node || (v_at + 1);
                    v_todo_value := v_todo_value || (v_value -> v_key);
                    v_todo_path := v_todo_path || format('%s[%s]', v_path, to_jsonb(v_key));
                END LOOP;
            END IF;
        ELSE
            NULL;  -- null and boolean carry no further constraints
        END CASE;
    END LOOP;
    RETURN NULL;
END
$_$;


--
-- Name: queue_begin(bigint, uuid, timestamp with time zone, interval); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_begin(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_wait interval) RETURNS TABLE(decision text, retry_generation integer, handler_failures integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_job      record;
    v_claims   bigint;
    v_parent   text;
    v_wait     interval;
BEGIN
    SELECT least(p_wait * power(2, least(q.attempts, 10)), interval '1 minute') INTO v_wait
    FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    FOR UPDATE;
    IF NOT FOUND THEN
        decision := 'lost';
        RETURN NEXT;
        RETURN;
    END IF;

    -- Everything the checks below read about the job, in one statement whose plan the session
    -- keeps. claims_ever counts every claim of the job; the count that matters (since its last
    -- return to the queue) is never larger, so it is read only when claims_ever exceeds the cap.
    -- The log is read by job id only, its status tested in FILTER clauses: with a status
    -- condition the planner may walk pgqueuer_log_status, every picked or queued row of every
    -- job, whenever its statistics are stale (as after a TRUNCATE).
    SELECT j.retry_generation AS generation, j.handler_failures AS failures, j.depends_on,
           j.entity_key, j.event_seq,
           (SELECT t.entity_ordered FROM queue_event_types t WHERE t.event_name = j.action)
               AS ordered,
           (SELECT s.max_reclaims FROM queue_settings s) AS max_reclaims,
           (SELECT count(*) FILTER (WHERE l.status = 'picked') FROM pgqueuer_log l
            WHERE l.job_id = p_id) AS claims_ever
    INTO v_job
    FROM public.jobs j WHERE j.queue_job_id = p_id;
    IF NOT FOUND THEN
        PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
            'exception_type', 'MissingJobIdentity',
            'exception_message', 'queue row has no public job identity'));
        decision := 'held';
        RETURN NEXT;
        RETURN;
    END IF;
    IF v_job.max_reclaims IS NULL THEN
        RAISE EXCEPTION 'queue_settings has no row' USING ERRCODE = 'no_data_found';
    END IF;
    retry_generation := v_job.generation;
    handler_failures := v_job.failures;

    -- Claims since the job last went back to the queue: more than one means earlier owners
    -- died while running it. Only queue_claim writes 'picked' rows, so the count is honest.
    IF v_job.claims_ever - 1 > v_job.max_reclaims THEN
        SELECT count(*) FILTER (WHERE l.status = 'picked' AND l.id > coalesce(r.last_queued, 0))
        INTO v_claims
        FROM (SELECT max(q.id) FILTER (WHERE q.status = 'queued') AS last_queued
              FROM pgqueuer_log q WHERE q.job_id = p_id) r
        JOIN pgqueuer_log l ON l.job_id = p_id;
        IF v_claims - 1 > v_job.max_reclaims THEN
            PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
                'exception_type', 'WorkerLost',
                'exception_message',
                format('a worker stopped while running this job %s times', v_claims - 1)));
            decision := 'held';
            RETURN NEXT;
            RETURN;
        END IF;
    END IF;

    IF v_job.depends_on IS NOT NULL THEN
        SELECT s.status INTO v_parent FROM job_public_status(v_job.depends_on) s;
        IF v_parent IN ('queued', 'processing') THEN
            PERFORM queue_retry(p_id, p_manager, p_claimed_at, v_wait, jsonb_build_object(
                'exception_type', 'AwaitingDependency',
                'exception_message', format('waiting for job %s', v_job.depends_on)));
            decision := 'deferred';
            RETURN NEXT;
            RETURN;
        ELSIF v_parent <> 'succeeded' THEN
            PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
                'exception_type', 'DependencyFailed',
                'exception_message', format('job %s it depends on is %s', v_job.depends_on, v_parent)));
            decision := 'held';
            RETURN NEXT;
            RETURN;
        END IF;
    END IF;

    -- An earlier job blocks while its queue row exists (queued, running or held). Completion
    -- and discard set finished_at with the row's deletion, so the partial index on unfinished
    -- jobs holds every such job and the read does not grow with the entity's history.
    IF v_job.ordered AND v_job.entity_key IS NOT NULL AND EXISTS (
        SELECT 1
        FROM public.jobs e
        JOIN queue_event_types et ON et.event_name = e.action AND et.entity_ordered
        JOIN pgqueuer eq ON eq.id = e.queue_job_id
        WHERE e.entity_key = v_job.entity_key AND e.event_seq < v_job.event_seq
          AND e.finished_at IS NULL
    ) THEN
        PERFORM queue_retry(p_id, p_manager, p_claimed_at, v_wait, jsonb_build_object(
            'exception_type', 'AwaitingEarlierEvent',
            'exception_message', format('an earlier job for %s is unfinished', v_job.entity_key)));
        decision := 'deferred';
        RETURN NEXT;
        RETURN;
    END IF;

    decision := 'run';
    RETURN NEXT;
END
$$;


--
-- Name: pgqueuer; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pgqueuer (
    id bigint NOT NULL,
    priority integer NOT NULL,
    queue_manager_id uuid,
    created timestamp with time zone DEFAULT now() NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    heartbeat timestamp with time zone DEFAULT now() NOT NULL,
    execute_after timestamp with time zone DEFAULT now() NOT NULL,
    status public.pgqueuer_status NOT NULL,
    entrypoint text NOT NULL,
    dedupe_key text,
    payload bytea,
    headers jsonb,
    attempts integer DEFAULT 0 NOT NULL
);


--
-- Name: queue_claim(uuid, text[], integer, integer, interval); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_claim(p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_stale    interval;
    v_names    text[];
    v_free     integer;
    v_room     integer;
    v_may_act  boolean;
    v_ids      bigint[];
    v_ready    integer;
    v_queued   text[];
    v_claimed  pgqueuer[];
    v_row      pgqueuer;
    v_gate     record;
BEGIN
    IF p_manager IS NULL OR p_batch IS NULL OR p_batch < 1 THEN
        RAISE EXCEPTION 'queue_claim needs a manager id and a batch of at least one'
            USING ERRCODE = 'GJ003';
    END IF;
    jobs := '{}';
    retry_generations := '{}';
    -- Every guard in one statement, whose plan the session caches. The manager's running jobs
    -- are counted among all running ones (at most one per event), not through the manager's
    -- index: that index keeps an entry of every job the manager ever claimed until a vacuum,
    -- and a bitmap scan of it would read them all at every claim.
    SELECT s.stale_heartbeat,
           (SELECT array_agg(t.event_name) FROM queue_event_types t
            WHERE t.event_name = ANY (p_entrypoints) AND (t.owner = 'bot' OR NOT w.is_worker)),
           (SELECT p_worker_limit - count(*) FILTER (WHERE q.queue_manager_id = p_manager)
            FROM pgqueuer q WHERE q.status = 'picked'),
           queue_may_act_for(p_manager)
    INTO STRICT v_stale, v_names, v_free, v_may_act
    FROM queue_settings s CROSS JOIN (SELECT queue_session_is_worker() AS is_worker) w;
    v_room := least(p_batch, coalesce(v_free, p_batch));
    IF v_names IS NULL OR v_room < 1 OR NOT v_may_act THEN
        RETURN;
    END IF;

    -- The rows to claim are chosen and locked by a read-only statement, so a call that finds
    -- nothing never starts the writing one.
    -- The events that have a queued job come from a loose scan of the queued rows' entrypoint
    -- index (one probe per such event), so the per-event probes below run only for them and
    -- not for every registered event, most of which usually have nothing queued.
    -- Candidates are tried in priority order until the batch is full, each kept if this claim
    -- gets its row, FOR UPDATE SKIP LOCKED: a row another transaction holds (another claim's
    -- start, an effect committing under the old claim, which holds it FOR KEY SHARE) lets the
    -- next candidate in, and one changed since this statement's snapshot is kept only if its
    -- newest version is still claimable. OFFSET 0 keeps the lock above the sort, so only the
    -- candidates tried are locked. The candidates are counted too: any left over (another
    -- event's ready job, or one this claim found locked) may be taken by the next claim.
    WITH RECURSIVE queued_events(name) AS (
        (SELECT q.entrypoint FROM pgqueuer q WHERE q.status = 'queued'
         ORDER BY q.entrypoint LIMIT 1)
        UNION ALL
        SELECT (SELECT q.entrypoint FROM pgqueuer q
                WHERE q.status = 'queued' AND q.entrypoint > e.name
                ORDER BY q.entrypoint LIMIT 1)
        FROM queued_events e WHERE e.name IS NOT NULL
    ), fresh AS (
        SELECT n.id, n.priority
        FROM queued_events e
        CROSS JOIN LATERAL (
            SELECT q.id, q.priority FROM pgqueuer q
            WHERE q.entrypoint = e.name AND q.status = 'queued' AND q.execute_after <= now()
              AND NOT EXISTS (SELECT 1 FROM pgqueuer r
                              WHERE r.entrypoint = e.name AND r.status = 'picked')
            ORDER BY q.priority DESC, q.id
            LIMIT 1
        ) n
        WHERE e.name = ANY (v_names)
    ), stale AS (
        SELECT q.id, q.priority FROM pgqueuer q
        WHERE q.entrypoint = ANY (v_names) AND q.status = 'picked'
          AND q.heartbeat < now() - v_stale
    ), candidates AS MATERIALIZED (
        SELECT * FROM fresh UNION ALL SELECT * FROM stale
    )
    SELECT (SELECT array_agg(k.id)
            FROM (SELECT c.id
                  FROM (SELECT * FROM candidates ORDER BY priority DESC, id OFFSET 0) c
                  WHERE EXISTS (SELECT 1 FROM pgqueuer q
                                WHERE q.id = c.id
                                  AND (q.status = 'queued' AND q.execute_after <= now()
                                       OR q.status = 'picked' AND q.heartbeat < now() - v_stale)
                                FOR UPDATE OF q SKIP LOCKED)
                  LIMIT v_room) k),
           (SELECT count(*) FROM candidates),
           (SELECT array_agg(e.name) FROM queued_events e WHERE e.name = ANY (v_names))
    INTO v_ids, v_ready, v_queued;
    v_ready := v_ready - coalesce(cardinality(v_ids), 0);
    -- The manager's own limit, once this claim's jobs run, may leave no room for another.
    more_ready := v_ready > 0 AND coalesce(v_free - cardinality(v_ids) > 0, true);

    -- No subtransaction here: another start of one of these entrypoints that this claim's
    -- snapshot missed fails the whole call on the unique index (or deadlocks it), and the
    -- caller reads that as "claimed nothing" (genji_queue.claim).
    IF v_ids IS NOT NULL THEN
        WITH claimed AS (
            UPDATE pgqueuer q
            SET status = 'picked', updated = now(), heartbeat = now(),
                queue_manager_id = p_manager
            WHERE q.id = ANY (v_ids)
            RETURNING q.id, q.entrypoint, q.priority, q AS job
        ), logged AS (
            INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
            SELECT c.id, 'picked', c.entrypoint, c.priority FROM claimed c
        )
        SELECT array_agg(c.job ORDER BY c.priority DESC, c.id) INTO v_claimed FROM claimed c;
    END IF;
    FOREACH v_row IN ARRAY coalesce(v_claimed, '{}') LOOP
        BEGIN
            SELECT b.decision, b.retry_generation INTO v_gate
            FROM queue_begin(v_row.id, p_manager, v_row.updated, p_wait) b;
        EXCEPTION WHEN OTHERS THEN
            PERFORM queue_hold(v_row.id, p_manager, v_row.updated, jsonb_build_object(
                'exception_type', 'GateFailed', 'exception_message', SQLERRM));
            more_ready := true;
            CONTINUE;
        END;
        IF v_gate.decision = 'run' THEN
            jobs := jobs || v_row;
            retry_generations := retry_generations || v_gate.retry_generation;
        ELSE
            -- Deferred or held: its event is free again, for a later job of that event.
            more_ready := true;
        END IF;
    END LOOP;

    -- Only the events that had queued jobs when the claim looked can have any now (what the
    -- gate writes back sets more_ready; a job inserted, released or retried since wakes the
    -- worker through queue_wake or the queue's trigger), so these reads probe those events and
    -- not every event the session may claim. Each read is an ordered probe of the queued rows'
    -- (entrypoint, execute_after) index, which passes over the entries of rows already
    -- finished, where a scan of the table would visit each of them.
    IF NOT more_ready THEN
        SELECT coalesce(bool_or(e.first IS NOT NULL), false), min(e.due) - clock_timestamp()
        INTO queued, next_due
        FROM unnest(v_queued) AS n(name)
        CROSS JOIN LATERAL (
            SELECT (SELECT q.execute_after FROM pgqueuer q
                    WHERE q.entrypoint = n.name AND q.status = 'queued'
                    ORDER BY q.execute_after LIMIT 1) AS first,
                   (SELECT q.execute_after FROM pgqueuer q
                    WHERE q.entrypoint = n.name AND q.status = 'queued'
                      AND q.execute_after > now()
                    ORDER BY q.execute_after LIMIT 1) AS due
        ) e;
    END IF;
END
$$;


--
-- Name: queue_complete(bigint, uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) RETURNS boolean
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT (queue_complete_many(ARRAY[p_id], ARRAY[p_manager], ARRAY[p_claimed_at]))[1];
$$;


--
-- Name: queue_complete_and_claim(bigint[], uuid[], timestamp with time zone[], uuid, text[], integer, integer, interval); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_complete_and_claim(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[], p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT written boolean[], OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_commit text := current_setting('synchronous_commit');
BEGIN
    written := queue_complete_many(p_ids, p_managers, p_claimed_ats);
    SELECT c.jobs, c.retry_generations, c.more_ready, c.queued, c.next_due
    INTO jobs, retry_generations, more_ready, queued, next_due
    FROM queue_claim(p_manager, p_entrypoints, p_batch, p_worker_limit, p_wait) c;
    IF cardinality(jobs) > 0 OR more_ready THEN
        PERFORM set_config('synchronous_commit', v_commit, true);
    END IF;
END
$$;


--
-- Name: queue_complete_many(bigint[], uuid[], timestamp with time zone[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_complete_many(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[]) RETURNS boolean[]
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_written boolean[];
    v_waited bigint[];
    v_id bigint;
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    WITH claims AS (
        SELECT c.id, c.manager, c.claimed_at, c.ord
        FROM unnest(p_ids, p_managers, p_claimed_ats) WITH ORDINALITY
             AS c(id, manager, claimed_at, ord)
    ), managers AS (
        SELECT m.manager FROM (SELECT DISTINCT c.manager FROM claims c) m
        WHERE queue_may_act_for(m.manager)
    ), done AS (
        DELETE FROM pgqueuer q USING claims c, managers m
        WHERE m.manager = c.manager
          AND q.id = c.id AND q.queue_manager_id = c.manager AND q.updated = c.claimed_at
          AND q.status = 'picked'
        RETURNING q.id, q.entrypoint, q.priority, c.ord
    ), logged AS (
        INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
        SELECT d.id, 'successful', d.entrypoint, d.priority FROM done d
    ), finished AS (
        -- A finished job leaves the index of unfinished entity jobs the start gate reads.
        UPDATE public.jobs j SET finished_at = now() FROM done d WHERE j.queue_job_id = d.id
        RETURNING j.queue_job_id,
            EXISTS (SELECT 1 FROM public.jobs w WHERE w.depends_on = j.id)
            OR (j.entity_key IS NOT NULL AND EXISTS (
                SELECT 1 FROM public.jobs e
                WHERE e.entity_key = j.entity_key AND e.event_seq > j.event_seq
                  AND e.finished_at IS NULL)) AS awaited
    )
    SELECT (SELECT array_agg(d.ord IS NOT NULL ORDER BY c.ord)
            FROM claims c LEFT JOIN done d USING (ord)),
           (SELECT array_agg(f.queue_job_id ORDER BY f.queue_job_id) FROM finished f
            WHERE f.awaited)
    INTO v_written, v_waited;
    -- Only a job that something may wait for (a dependent, a later event of its entity) has
    -- waiters to resume; the test above reads the rows queue_resume_waiters would.
    FOREACH v_id IN ARRAY coalesce(v_waited, '{}') LOOP
        PERFORM queue_resume_waiters(v_id);
    END LOOP;
    RETURN coalesce(v_written, '{}');
END
$$;


--
-- Name: queue_config(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_config(OUT stale_heartbeat interval, OUT max_reclaims integer) RETURNS record
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT s.stale_heartbeat, s.max_reclaims FROM queue_settings s;
$$;


--
-- Name: queue_discard_held(uuid, bigint, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_discard_held(p_job_id uuid, p_actor_id bigint, p_reason text) RETURNS TABLE(outcome text, action_id bigint, resumed integer)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    RAISE EXCEPTION 'queue_discard_held was replaced by recovery_discard' USING ERRCODE = 'GJ009',
        HINT = format('genji-jobs discard %s --reason ... (SELECT * FROM recovery_discard(...) '
                      'in psql); see docs/queue-operations.md', p_job_id);
END
$$;


--
-- Name: queue_entrypoint_metrics(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_entrypoint_metrics() RETURNS TABLE(entrypoint text, owner text, ready bigint, delayed bigint, running bigint, held bigint, oldest_ready_age interval)
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT
        t.event_name,
        t.owner,
        count(q.id) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        count(q.id) FILTER (WHERE q.status = 'queued' AND q.execute_after > now()),
        count(q.id) FILTER (WHERE q.status = 'picked'),
        count(q.id) FILTER (WHERE q.status = 'failed'),
        now() - min(q.execute_after) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now())
    FROM queue_event_types t
    LEFT JOIN pgqueuer q ON q.entrypoint = t.event_name
    GROUP BY t.event_name, t.owner
    ORDER BY t.event_name;
$$;


--
-- Name: queue_envelope(uuid, text, text, integer, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_envelope(p_job_id uuid, p_event_name text, p_event_key text, p_version integer, p_payload text, p_trace jsonb) RETURNS bytea
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN convert_to((((((((((((('{"trace": '::text || (p_trace)::text) || ', "job_id": "'::text) || (p_job_id)::text) || '", "payload": '::text) || p_payload) || ', "event_key": '::text) || (to_jsonb(p_event_key))::text) || ', "event_name": '::text) || (to_jsonb(p_event_name))::text) || ', "payload_version": '::text) || (p_version)::text) || '}'::text), 'UTF8'::name);


--
-- Name: queue_error_summary(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_error_summary(p_error jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT CASE WHEN p_error IS NULL OR jsonb_typeof(p_error) <> 'object' THEN NULL
           ELSE jsonb_build_object(
               'exception_type', left(coalesce(p_error ->> 'exception_type', 'Error'), 100),
               'exception_message', left(coalesce(p_error ->> 'exception_message', ''), 300))
           END;
$$;


--
-- Name: queue_fail(bigint, uuid, timestamp with time zone, interval[], jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_fail(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delays interval[], p_error jsonb) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_failures integer;
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN 'lost';
    END IF;
    PERFORM 1 FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'lost';
    END IF;
    SELECT j.handler_failures + 1 INTO v_failures FROM public.jobs j WHERE j.queue_job_id = p_id;
    IF v_failures IS NOT NULL AND v_failures <= coalesce(array_length(p_delays, 1), 0) THEN
        PERFORM queue_retry(p_id, p_manager, p_claimed_at, p_delays[v_failures], p_error, true);
        RETURN 'retry';
    END IF;
    PERFORM queue_hold(p_id, p_manager, p_claimed_at, p_error, true);
    RETURN 'held';
END
$$;


--
-- Name: queue_heartbeat(bigint[], uuid[], timestamp with time zone[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_heartbeat(p_ids bigint[], p_managers uuid[], p_claimed_at timestamp with time zone[]) RETURNS SETOF bigint
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    WITH claims AS (
        SELECT c.id, c.manager, c.claimed_at
        FROM unnest(p_ids, p_managers, p_claimed_at) AS c(id, manager, claimed_at)
    ), beaten AS (
        UPDATE pgqueuer q SET heartbeat = now()
        FROM claims c
        WHERE q.id = c.id AND q.queue_manager_id = c.manager AND q.updated = c.claimed_at
          AND q.status = 'picked' AND queue_may_act_for(c.manager)
        RETURNING q.id, q.queue_manager_id, q.updated
    )
    SELECT c.id FROM claims c
    WHERE NOT EXISTS (SELECT 1 FROM beaten b
                      WHERE b.id = c.id AND b.queue_manager_id = c.manager AND b.updated = c.claimed_at);
$$;


--
-- Name: queue_hold(bigint, uuid, timestamp with time zone, jsonb, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_hold(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_error jsonb, p_handler_failure boolean DEFAULT false) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row   pgqueuer;
    v_error jsonb := queue_error_summary(p_error);
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN false;
    END IF;
    UPDATE pgqueuer q
    SET status = 'failed', queue_manager_id = NULL, updated = now()
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'failed', v_row.entrypoint, v_row.priority, v_error);
    UPDATE public.jobs j
    SET handler_failures = j.handler_failures + p_handler_failure::int,
        error_code = coalesce(v_error ->> 'exception_type', 'held'),
        error_msg = v_error ->> 'exception_message',
        held_at = now()
    WHERE j.queue_job_id = p_id;
    PERFORM queue_wake();
    RETURN true;
END
$$;


--
-- Name: queue_may_act_for(uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_may_act_for(p_manager uuid) RETURNS boolean
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN NOT queue_session_is_worker() OR EXISTS (
        SELECT 1 FROM queue_workers w
        WHERE w.manager_id = p_manager
          AND (w.backend_pid = pg_backend_pid() OR NOT queue_session_alive(w.backend_pid)));
END
$$;


--
-- Name: queue_metrics(interval); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_metrics(p_alive_within interval DEFAULT '00:01:00'::interval) RETURNS TABLE(ready bigint, delayed bigint, running bigint, held bigint, uncertain_effects bigint, oldest_ready_age interval, workers_alive bigint, workers_silent bigint, bot_ready bigint, api_ready bigint, bot_running bigint, api_running bigint, bot_workers_alive bigint, api_workers_alive bigint, silent_workers jsonb)
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    WITH workers AS (
        SELECT w.*, w.beat_at >= now() - p_alive_within AS alive FROM queue_workers w
    )
    SELECT
        count(*) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        count(*) FILTER (WHERE q.status = 'queued' AND q.execute_after > now()),
        count(*) FILTER (WHERE q.status = 'picked'),
        count(*) FILTER (WHERE q.status = 'failed'),
        -- A discarded job's uncertain send stays recorded, but nothing can resolve it any
        -- more, so it asks for no attention.
        (SELECT count(*) FROM effect_bindings b JOIN public.jobs j ON j.id = b.job_id
         WHERE b.state = 'uncertain' AND j.finished_at IS NULL),
        now() - min(q.execute_after) FILTER (WHERE q.status = 'queued' AND q.execute_after <= now()),
        (SELECT count(*) FROM workers w WHERE w.alive),
        (SELECT count(*) FROM workers w WHERE NOT w.alive),
        count(*) FILTER (WHERE t.owner = 'bot' AND q.status = 'queued' AND q.execute_after <= now()),
        count(*) FILTER (WHERE t.owner = 'api' AND q.status = 'queued' AND q.execute_after <= now()),
        count(*) FILTER (WHERE t.owner = 'bot' AND q.status = 'picked'),
        count(*) FILTER (WHERE t.owner = 'api' AND q.status = 'picked'),
        (SELECT count(*) FROM workers w WHERE w.alive AND w.owner = 'bot'),
        (SELECT count(*) FROM workers w WHERE w.alive AND w.owner = 'api'),
        (SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'owner', w.owner, 'host', w.host, 'pid', w.pid, 'beat_at', w.beat_at)
                    ORDER BY w.beat_at DESC), '[]'::jsonb)
         FROM workers w WHERE NOT w.alive)
    FROM pgqueuer q
    LEFT JOIN queue_event_types t ON t.event_name = q.entrypoint;
$$;


--
-- Name: queue_prune_logs(interval, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_prune_logs(p_retention interval DEFAULT '30 days'::interval, p_batch integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_pruned integer;
BEGIN
    -- With a long history the planner expects almost every old job to have a newer log, so
    -- it would check each candidate against the uncertain effects by reading its job: the
    -- queue ids of jobs with an uncertain effect (usually none) are read once instead.
    WITH uncertain AS MATERIALIZED (
        SELECT j.queue_job_id FROM effect_bindings b JOIN public.jobs j ON j.id = b.job_id
        WHERE b.state = 'uncertain'
    ), finished AS (
        SELECT DISTINCT ON (l.job_id) l.job_id, l.status, l.traceback, l.created
        FROM pgqueuer_log l
        WHERE l.status IN ('successful', 'exception', 'canceled', 'deleted')
          AND l.created < now() - p_retention
        ORDER BY l.job_id, l.created DESC, l.id DESC
    ), prunable AS (
        -- OFFSET 0 keeps the newer-log check a filter, whose estimate does not fall to one
        -- row and turn the statements below into one index probe per job.
        SELECT f.* FROM finished f
        WHERE NOT EXISTS (SELECT 1 FROM pgqueuer q WHERE q.id = f.job_id)
          AND NOT EXISTS (SELECT 1 FROM pgqueuer_log newer
                          WHERE newer.job_id = f.job_id AND newer.created >= now() - p_retention
                          OFFSET 0)
          AND NOT EXISTS (SELECT 1 FROM uncertain u WHERE u.queue_job_id = f.job_id)
        ORDER BY f.created
        LIMIT p_batch
    ), summarized AS (
        UPDATE public.jobs j
        SET status = s.status::job_status, error_code = s.error_code, error_msg = s.error_msg,
            finished_at = p.created,
            summarized_at = now()
        FROM prunable p CROSS JOIN LATERAL job_terminal_summary(p.status::text, p.traceback) s
        WHERE j.queue_job_id = p.job_id
        RETURNING j.id
    ), removed AS (
        -- A prunable job has no log inside the retention (checked above), so the bound
        -- removes the same rows, and the delete reads the old logs by their time instead of
        -- probing the log index once per job.
        DELETE FROM pgqueuer_log l USING prunable p
        WHERE l.job_id = p.job_id AND l.created < now() - p_retention
        RETURNING l.job_id
    )
    SELECT count(DISTINCT r.job_id) INTO v_pruned FROM removed r;

    DELETE FROM pgqueuer_statistics s WHERE s.created < now() - p_retention;
    RETURN v_pruned;
END
$$;


--
-- Name: queue_release(bigint, uuid, timestamp with time zone, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_release(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_reason text DEFAULT 'released'::text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row pgqueuer;
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN false;
    END IF;
    UPDATE pgqueuer q
    SET status = 'queued', queue_manager_id = NULL, updated = now(), execute_after = now()
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'queued', v_row.entrypoint, v_row.priority,
            jsonb_build_object('exception_type', 'Released', 'exception_message', p_reason));
    PERFORM queue_wake();
    RETURN true;
END
$$;


--
-- Name: queue_resume_waiters(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_resume_waiters(p_queue_id bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_job   public.jobs;
    v_child public.jobs;
    v_held  bigint[] := '{}';
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.queue_job_id = p_queue_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- A held dependent's job row is locked before its queue row, as recovery locks them, and
    -- the queue row is resumed only if it is still held once that lock is taken (an operator's
    -- retry may have come first).
    FOR v_child IN
        SELECT * FROM public.jobs d
        WHERE d.depends_on = v_job.id AND d.error_code = 'DependencyFailed'
        ORDER BY d.id
        FOR UPDATE
    LOOP
        UPDATE pgqueuer q
        SET status = 'queued', execute_after = now(), updated = now(), queue_manager_id = NULL,
            attempts = 0
        WHERE q.id = v_child.queue_job_id AND q.status = 'failed';
        IF FOUND THEN
            UPDATE public.jobs j
            SET retry_generation = j.retry_generation + 1, handler_failures = 0, held_at = NULL
            WHERE j.id = v_child.id;
            v_held := v_held || v_child.queue_job_id;
        END IF;
    END LOOP;

    -- The delayed waiters become ready; each resumed job, held or delayed, is logged once (a
    -- held one resumed above is ready already, so it is not delayed).
    WITH waiters AS (
        SELECT d.queue_job_id AS id FROM public.jobs d WHERE d.depends_on = v_job.id
        UNION ALL
        SELECT e.queue_job_id
        FROM public.jobs e
        WHERE v_job.entity_key IS NOT NULL AND e.entity_key = v_job.entity_key
          AND e.event_seq > v_job.event_seq AND e.finished_at IS NULL
    ), delayed AS (
        UPDATE pgqueuer q
        SET execute_after = now(), updated = now(), queue_manager_id = NULL
        FROM waiters w
        WHERE q.id = w.id AND q.status = 'queued' AND q.execute_after > now()
        RETURNING q.id, q.entrypoint, q.priority
    ), resumed AS (
        SELECT * FROM delayed
        UNION ALL
        SELECT q.id, q.entrypoint, q.priority FROM pgqueuer q WHERE q.id = ANY (v_held)
    )
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    SELECT r.id, 'queued', r.entrypoint, r.priority,
           jsonb_build_object('exception_type', 'WaitOver',
                              'exception_message', format('job %s succeeded', v_job.id))
    FROM resumed r;
    IF FOUND THEN
        PERFORM queue_wake();
    END IF;
END
$$;


--
-- Name: queue_retention_run(interval, interval, integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_retention_run(p_every interval DEFAULT '1 day'::interval, p_retention interval DEFAULT '30 days'::interval, p_batch integer DEFAULT 1000, p_max_batches integer DEFAULT 100) RETURNS TABLE(ran boolean, pruned integer, batches integer, started_at timestamp with time zone)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_task    queue_maintenance;
    v_pruned  integer := 0;
    v_batches integer := 0;
    v_count   integer;
BEGIN
    IF p_every IS NULL OR p_retention IS NULL OR p_batch IS NULL OR p_batch < 1
       OR p_max_batches IS NULL OR p_max_batches < 1 THEN
        RAISE EXCEPTION 'a retention run needs an interval, a retention and positive batch limits'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_task FROM queue_maintenance m WHERE m.task = 'prune_logs'
    FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN QUERY SELECT false, 0, 0, NULL::timestamptz;
        RETURN;
    END IF;
    IF v_task.last_started_at IS NOT NULL AND v_task.last_started_at > now() - p_every THEN
        RETURN QUERY SELECT false, 0, 0, v_task.last_started_at;
        RETURN;
    END IF;
    LOOP
        v_count := queue_prune_logs(p_retention, p_batch);
        v_pruned := v_pruned + v_count;
        v_batches := v_batches + 1;
        EXIT WHEN v_count < p_batch OR v_batches >= p_max_batches;
    END LOOP;
    UPDATE queue_maintenance m
    SET last_started_at = now(), last_finished_at = clock_timestamp(),
        last_result = jsonb_build_object('pruned', v_pruned, 'batches', v_batches,
                                         'retention', p_retention::text)
    WHERE m.task = 'prune_logs';
    RETURN QUERY SELECT true, v_pruned, v_batches, now();
END
$$;


--
-- Name: queue_retry(bigint, uuid, timestamp with time zone, interval, jsonb, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_retry(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delay interval, p_error jsonb DEFAULT NULL::jsonb, p_handler_failure boolean DEFAULT false) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_row   pgqueuer;
    v_error jsonb := queue_error_summary(p_error);
BEGIN
    IF NOT queue_may_act_for(p_manager) THEN
        RETURN false;
    END IF;
    UPDATE pgqueuer q
    SET status = 'queued', queue_manager_id = NULL, updated = now(),
        execute_after = now() + greatest(p_delay, interval '0'), attempts = q.attempts + 1
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'queued', v_row.entrypoint, v_row.priority, v_error);
    IF p_handler_failure THEN
        UPDATE public.jobs j
        SET handler_failures = j.handler_failures + 1,
            error_code = v_error ->> 'exception_type',
            error_msg = v_error ->> 'exception_message'
        WHERE j.queue_job_id = p_id;
    END IF;
    PERFORM queue_wake();
    RETURN true;
END
$$;


--
-- Name: queue_session_alive(integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_session_alive(p_pid integer) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = p_pid);
$$;


--
-- Name: queue_session_is_worker(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_session_is_worker() RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
    SELECT pg_catalog.pg_has_role(session_user, 'genjishimada_queue_worker', 'MEMBER')
           AND NOT pg_catalog.pg_has_role(session_user, 'pg_database_owner', 'MEMBER')
$$;


--
-- Name: queue_trace_filter(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_trace_filter(p_trace jsonb) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN (SELECT coalesce(jsonb_object_agg(lower(e.key), left(e.value, 512)), '{}')
            FROM jsonb_each_text(coalesce(p_trace, '{}')) e
            WHERE lower(e.key) IN ('baggage', 'sentry-trace', 'traceparent', 'tracestate', 'x-request-id'));
END
$$;


--
-- Name: queue_wake(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_wake() RETURNS void
    LANGUAGE sql
    AS $$
    SELECT pg_notify(
        'ch_pgqueuer',
        json_build_object(
            'channel', 'ch_pgqueuer',
            'operation', 'update',
            'sent_at', now(),
            'table', 'pgqueuer',
            'type', 'table_changed_event'
        )::text
    );
$$;


--
-- Name: queue_worker_beat(uuid, text, text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_worker_beat(p_manager uuid, p_owner text, p_host text, p_pid integer) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF p_owner = 'api' AND queue_session_is_worker() THEN
        RAISE EXCEPTION 'the queue worker login runs bot workers only' USING ERRCODE = '42501';
    END IF;
    INSERT INTO queue_workers AS w (manager_id, owner, host, pid, backend_pid)
    VALUES (p_manager, p_owner, left(p_host, 200), p_pid, pg_backend_pid())
    ON CONFLICT (manager_id) DO UPDATE
        SET beat_at = now(), backend_pid = excluded.backend_pid
        WHERE w.backend_pid = excluded.backend_pid OR NOT queue_session_alive(w.backend_pid);
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    -- Killed workers never say goodbye; forget them once they have been silent for a day.
    DELETE FROM queue_workers w WHERE w.beat_at < now() - interval '1 day';
    RETURN true;
END
$$;


--
-- Name: queue_worker_budgets(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_worker_budgets(p_owner text) RETURNS TABLE(failure_budget integer, retry_delays double precision[], workers integer, live integer, last_beat_at timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT cardinality(w.retry_delays), w.retry_delays, count(*)::integer,
           (count(*) FILTER (WHERE w.beat_at >= now() - s.stale_heartbeat
                                   AND queue_session_alive(w.backend_pid)))::integer,
           max(w.beat_at)
    FROM queue_workers w CROSS JOIN queue_settings s
    WHERE w.owner = p_owner
    GROUP BY w.retry_delays
    ORDER BY 4 DESC, 5 DESC;
$$;


--
-- Name: queue_worker_health(text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_worker_health(p_owner text, p_host text) RETURNS TABLE(manager_id uuid, pid integer, started_at timestamp with time zone, beat_at timestamp with time zone, silent_for interval, session_alive boolean, consuming boolean)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF p_owner IS DISTINCT FROM 'bot' AND queue_session_is_worker() THEN
        RAISE EXCEPTION 'the queue worker login runs bot workers only' USING ERRCODE = '42501';
    END IF;
    RETURN QUERY
    SELECT w.manager_id, w.pid, w.started_at, w.beat_at, now() - w.beat_at,
           queue_session_alive(w.backend_pid),
           w.beat_at >= now() - s.stale_heartbeat AND queue_session_alive(w.backend_pid)
    FROM queue_workers w CROSS JOIN queue_settings s
    WHERE w.owner = p_owner AND w.host = p_host
    ORDER BY w.beat_at DESC;
END
$$;


--
-- Name: queue_worker_retry_schedule(uuid, double precision[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_worker_retry_schedule(p_manager uuid, p_delays double precision[]) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF p_delays IS NULL OR array_position(p_delays, NULL) IS NOT NULL
       OR EXISTS (SELECT 1 FROM unnest(p_delays) d WHERE d < 0 OR d = 'NaN' OR d = 'Infinity') THEN
        RAISE EXCEPTION 'a retry schedule is a list of finite delays of 0 seconds or more'
            USING ERRCODE = 'GJ003';
    END IF;
    UPDATE queue_workers w SET retry_delays = p_delays
    WHERE w.manager_id = p_manager AND w.backend_pid = pg_backend_pid();
    RETURN FOUND;
END
$$;


--
-- Name: queue_worker_stopped(uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_worker_stopped(p_manager uuid) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_claim record;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM queue_workers w
                   WHERE w.manager_id = p_manager
                     AND (w.backend_pid = pg_backend_pid()
                          OR NOT queue_session_alive(w.backend_pid))) THEN
        RETURN false;
    END IF;
    FOR v_claim IN
        SELECT q.id, q.updated FROM pgqueuer q
        WHERE q.queue_manager_id = p_manager AND q.status = 'picked'
        ORDER BY q.id
    LOOP
        PERFORM queue_release(v_claim.id, p_manager, v_claim.updated, 'its worker stopped');
    END LOOP;
    DELETE FROM queue_workers w
    WHERE w.manager_id = p_manager
      AND (w.backend_pid = pg_backend_pid() OR NOT queue_session_alive(w.backend_pid));
    RETURN FOUND;
END
$$;


--
-- Name: recovery_check_request(integer, text, bigint, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_check_request(p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_context jsonb) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF p_actor_id IS NULL OR p_actor_id <= 0 THEN
        RAISE EXCEPTION 'a recovery action needs the operator''s user id' USING ERRCODE = 'GJ003';
    END IF;
    IF p_expected_generation IS NULL OR p_expected_generation < 0 THEN
        RAISE EXCEPTION 'a recovery action needs the retry generation the operator saw'
            USING ERRCODE = 'GJ003';
    END IF;
    IF text_is_blank(p_idempotency_key) OR length(p_idempotency_key) > 200 THEN
        RAISE EXCEPTION 'a recovery action needs an idempotency key of 1 to 200 characters, '
            'not all blank' USING ERRCODE = 'GJ003';
    END IF;
    IF p_context IS NULL OR jsonb_typeof(p_context) <> 'object' THEN
        RAISE EXCEPTION 'the operation context must be a JSON object' USING ERRCODE = 'GJ003';
    END IF;
END
$$;


--
-- Name: recovery_context(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_context(p_context jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
    FROM jsonb_each(p_context) e
    WHERE e.key IN ('source', 'guild_id', 'channel_id', 'message_id', 'interaction_id')
$$;


--
-- Name: recovery_discard(uuid, integer, text, bigint, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_discard(p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_reason text, p_context jsonb DEFAULT '{}'::jsonb) RETURNS TABLE(outcome text, job_id uuid, retry_generation integer, state text, action_id bigint, recorded_outcome text)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
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
    IF text_is_blank(p_reason) OR length(p_reason) > 500 THEN
        RAISE EXCEPTION 'discarding a job needs a reason of 1 to 500 characters, not all blank'
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


--
-- Name: recovery_guard_held_row(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_guard_held_row() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    v_action text := CASE TG_OP WHEN 'DELETE' THEN 'discard' ELSE 'retry' END;
    v_job    public.jobs;
    v_parent public.jobs;
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.queue_job_id = OLD.id;
    IF EXISTS (SELECT 1 FROM job_actions a
               WHERE a.job_id = v_job.id AND a.action = v_action AND a.outcome = 'accepted'
                 AND a.xact_id = pg_current_xact_id()) THEN
        RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.status = 'queued' AND v_job.error_code = 'DependencyFailed' THEN
        SELECT * INTO v_parent FROM public.jobs p WHERE p.id = v_job.depends_on;
        IF FOUND AND recovery_job_state(v_parent) = 'succeeded' THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'queue row % (job %) is held; only the recovery service moves a held job',
        OLD.id, coalesce(v_job.id::text, 'without identity')
        USING ERRCODE = 'GJ009',
              HINT = format('genji-jobs %s %s%s (SELECT * FROM recovery_%s(...) in psql); '
                            'see docs/queue-operations.md', v_action, v_job.id,
                            CASE v_action WHEN 'discard' THEN ' --reason ...' ELSE '' END,
                            v_action);
END
$$;


--
-- Name: recovery_guard_identity(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_guard_identity() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted_rows n
               WHERE NOT EXISTS (SELECT 1 FROM public.jobs j WHERE j.queue_job_id = n.id OFFSET 0))
    THEN
        RAISE EXCEPTION 'queue rows are created by enqueue_job, with their public job identity'
            USING ERRCODE = 'GJ009',
                  HINT = 'SELECT * FROM enqueue_job(event name, payload, event key); to run a '
                         'held job again: genji-jobs retry <job id>';
    END IF;
    RETURN NULL;
END
$$;


--
-- Name: recovery_guard_truncate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_guard_truncate() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM pgqueuer q WHERE q.status = 'failed') THEN
        RAISE EXCEPTION 'the queue holds jobs waiting for the operator; it cannot be truncated'
            USING ERRCODE = 'GJ009',
                  HINT = 'genji-jobs list --state held; genji-jobs discard <job id> --reason ...';
    END IF;
    RETURN NULL;
END
$$;


--
-- Name: recovery_has_uncertain_send(uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_has_uncertain_send(p_job_id uuid) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT EXISTS (SELECT 1 FROM effect_bindings b WHERE b.job_id = p_job_id AND b.state = 'uncertain')
$$;


--
-- Name: jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.jobs (
    id uuid NOT NULL,
    action text NOT NULL,
    status public.job_status DEFAULT 'queued'::public.job_status NOT NULL,
    error_code text,
    error_msg text,
    attempts integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now(),
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    queue_job_id bigint,
    event_key text,
    payload_hash text,
    schema_version integer,
    entity_key text,
    event_seq bigint,
    handler_failures integer DEFAULT 0 NOT NULL,
    retry_generation integer DEFAULT 0 NOT NULL,
    depends_on uuid,
    held_at timestamp with time zone,
    summarized_at timestamp with time zone,
    CONSTRAINT jobs_handler_failures_check CHECK ((handler_failures >= 0)),
    CONSTRAINT jobs_identity_complete CHECK (((queue_job_id IS NULL) OR ((event_key IS NOT NULL) AND (payload_hash IS NOT NULL) AND (schema_version IS NOT NULL) AND (event_seq IS NOT NULL)))),
    CONSTRAINT jobs_retry_generation_check CHECK ((retry_generation >= 0))
);


--
-- Name: recovery_job_state(public.jobs); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_job_state(p_job public.jobs) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
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


--
-- Name: job_actions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_actions (
    id bigint NOT NULL,
    job_id uuid NOT NULL,
    action text NOT NULL,
    idempotency_key text NOT NULL,
    actor_id bigint NOT NULL,
    expected_generation integer,
    outcome text NOT NULL,
    reason text,
    detail jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    xact_id xid8 DEFAULT pg_current_xact_id() NOT NULL,
    CONSTRAINT job_actions_action_check CHECK ((action = ANY (ARRAY['retry'::text, 'discard'::text, 'resolve_effect'::text])))
);


--
-- Name: recovery_recorded_action(text, uuid, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_recorded_action(p_idempotency_key text, p_job_id uuid, p_action text) RETURNS public.job_actions
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
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


--
-- Name: recovery_resolve_effect(uuid, text, text, text, bigint, bigint, bigint, integer, text, bigint, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_resolve_effect(p_job_id uuid, p_effect_key text, p_destination text, p_decision text, p_channel_id bigint, p_message_id bigint, p_thread_id bigint, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_reason text DEFAULT NULL::text, p_context jsonb DEFAULT '{}'::jsonb) RETURNS TABLE(outcome text, job_id uuid, retry_generation integer, state text, action_id bigint, recorded_outcome text)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
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
    -- A send to a channel (or a forward into one) is in that channel: a located message
    -- elsewhere is the wrong message, whose ids the retried job would adopt. A DM's channel
    -- and a new forum thread's id are not in their destinations, so those are not checked.
    IF p_decision = 'located'
       AND split_part(p_destination, ':', 1) IN ('channel', 'forward')
       AND split_part(p_destination, ':', 2) <> p_channel_id::text THEN
        RAISE EXCEPTION 'the located message is in channel %, but % names channel %',
            p_channel_id, p_destination, split_part(p_destination, ':', 2)
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


--
-- Name: recovery_retry(uuid, integer, text, bigint, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recovery_retry(p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_context jsonb DEFAULT '{}'::jsonb) RETURNS TABLE(outcome text, job_id uuid, retry_generation integer, state text, action_id bigint, recorded_outcome text)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
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


--
-- Name: completions_verified_is_terminal(); Type: FUNCTION; Schema: tournaments; Owner: -
--

CREATE FUNCTION tournaments.completions_verified_is_terminal() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF OLD.status = 'verified' AND NEW.status <> 'verified' THEN
        RAISE EXCEPTION 'tournament completion % is verified: its status cannot become %',
            OLD.id, NEW.status
            USING ERRCODE = 'check_violation',
                  CONSTRAINT = 'completions_verified_is_terminal';
    END IF;
    RETURN NEW;
END
$$;


--
-- Name: api_tokens; Type: TABLE; Schema: auth; Owner: -
--

CREATE TABLE auth.api_tokens (
    id bigint NOT NULL,
    user_id integer NOT NULL,
    key_hash bytea NOT NULL,
    key_prefix text NOT NULL,
    is_superuser boolean DEFAULT false NOT NULL,
    scopes text[] DEFAULT '{}'::text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revoked_at timestamp with time zone,
    CONSTRAINT api_tokens_check CHECK (((revoked_at IS NULL) OR (revoked_at >= created_at))),
    CONSTRAINT api_tokens_key_hash_check CHECK ((octet_length(key_hash) = 32)),
    CONSTRAINT api_tokens_key_prefix_check CHECK ((char_length(key_prefix) = 8))
);


--
-- Name: api_tokens_id_seq; Type: SEQUENCE; Schema: auth; Owner: -
--

ALTER TABLE auth.api_tokens ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME auth.api_tokens_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: users; Type: TABLE; Schema: auth; Owner: -
--

CREATE TABLE auth.users (
    id integer NOT NULL,
    username text NOT NULL,
    info text,
    CONSTRAINT users_username_check CHECK ((username <> ''::text))
);


--
-- Name: users_id_seq; Type: SEQUENCE; Schema: auth; Owner: -
--

ALTER TABLE auth.users ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME auth.users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: ocr_decisions; Type: TABLE; Schema: completions; Owner: -
--

CREATE TABLE completions.ocr_decisions (
    completion_id integer NOT NULL,
    outcome text NOT NULL,
    extracted jsonb,
    decided_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ocr_decisions_extracted_check CHECK ((jsonb_typeof(extracted) = 'object'::text)),
    CONSTRAINT ocr_decisions_extracted_unless_error CHECK (((outcome = 'error'::text) = (extracted IS NULL))),
    CONSTRAINT ocr_decisions_outcome_check CHECK ((outcome = ANY (ARRAY['match'::text, 'mismatch'::text, 'error'::text])))
);


--
-- Name: upvotes; Type: TABLE; Schema: completions; Owner: -
--

CREATE TABLE completions.upvotes (
    id integer NOT NULL,
    user_id bigint NOT NULL,
    message_id bigint NOT NULL,
    inserted_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: upvotes_id_seq; Type: SEQUENCE; Schema: completions; Owner: -
--

ALTER TABLE completions.upvotes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME completions.upvotes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: verification_transitions; Type: TABLE; Schema: completions; Owner: -
--

CREATE TABLE completions.verification_transitions (
    id bigint NOT NULL,
    completion_id integer NOT NULL,
    verified boolean NOT NULL,
    verified_by bigint NOT NULL,
    reason text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: verification_transitions_id_seq; Type: SEQUENCE; Schema: completions; Owner: -
--

ALTER TABLE completions.verification_transitions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME completions.verification_transitions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: completions; Type: TABLE; Schema: core; Owner: -
--

CREATE TABLE core.completions (
    id integer NOT NULL,
    map_id integer NOT NULL,
    user_id bigint NOT NULL,
    "time" numeric(10,2) NOT NULL,
    screenshot text NOT NULL,
    video text,
    verified boolean DEFAULT false NOT NULL,
    verified_by bigint,
    reason text,
    completion boolean DEFAULT false NOT NULL,
    verification_id bigint,
    message_id bigint,
    legacy boolean DEFAULT false NOT NULL,
    wr_xp_check boolean DEFAULT false NOT NULL,
    tournament_completion_id integer,
    inserted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT completions_time_check CHECK (("time" > (0)::numeric))
);


--
-- Name: completions_id_seq; Type: SEQUENCE; Schema: core; Owner: -
--

ALTER TABLE core.completions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME core.completions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: maps; Type: TABLE; Schema: core; Owner: -
--

CREATE TABLE core.maps (
    id integer NOT NULL,
    code text NOT NULL,
    map_name text NOT NULL,
    category text DEFAULT 'Classic'::text NOT NULL,
    checkpoints integer DEFAULT 1 NOT NULL,
    official boolean DEFAULT true NOT NULL,
    playtesting text DEFAULT 'In Progress'::text NOT NULL,
    hidden boolean DEFAULT true NOT NULL,
    archived boolean DEFAULT false NOT NULL,
    raw_difficulty numeric(4,2),
    difficulty text,
    linked_code text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT maps_checkpoints_check CHECK ((checkpoints > 0)),
    CONSTRAINT maps_code_check CHECK ((code ~ '^[A-Z0-9]{4,6}$'::text)),
    CONSTRAINT maps_playtesting_check CHECK ((playtesting = ANY (ARRAY['Approved'::text, 'In Progress'::text, 'Rejected'::text]))),
    CONSTRAINT maps_raw_difficulty_check CHECK (((raw_difficulty >= (0)::numeric) AND (raw_difficulty <= (10)::numeric)))
);


--
-- Name: maps_id_seq; Type: SEQUENCE; Schema: core; Owner: -
--

ALTER TABLE core.maps ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME core.maps_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: users; Type: TABLE; Schema: core; Owner: -
--

CREATE TABLE core.users (
    id bigint NOT NULL,
    nickname text NOT NULL,
    global_name text,
    is_mod boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT users_id_check CHECK ((id > 0))
);


--
-- Name: active_key; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.active_key (
    id integer DEFAULT 1 NOT NULL,
    key_type text NOT NULL,
    CONSTRAINT active_key_id_check CHECK ((id = 1))
);


--
-- Name: key_types; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.key_types (
    name text NOT NULL
);


--
-- Name: main_tiers; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.main_tiers (
    threshold integer NOT NULL,
    name text NOT NULL,
    CONSTRAINT main_tiers_threshold_check CHECK (((threshold >= 0) AND (threshold <= 19)))
);


--
-- Name: sub_tiers; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.sub_tiers (
    threshold integer NOT NULL,
    name text NOT NULL,
    CONSTRAINT sub_tiers_threshold_check CHECK (((threshold >= 0) AND (threshold <= 4)))
);


--
-- Name: user_keys; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.user_keys (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    key_type text NOT NULL,
    grant_key text NOT NULL,
    item integer NOT NULL,
    earned_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT user_keys_item_check CHECK ((item >= 1))
);


--
-- Name: user_keys_id_seq; Type: SEQUENCE; Schema: lootbox; Owner: -
--

ALTER TABLE lootbox.user_keys ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lootbox.user_keys_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: xp; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.xp (
    user_id bigint NOT NULL,
    amount integer DEFAULT 0 NOT NULL,
    CONSTRAINT xp_amount_check CHECK ((amount >= 0))
);


--
-- Name: xp_grants; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.xp_grants (
    id bigint NOT NULL,
    grant_key text NOT NULL,
    user_id bigint NOT NULL,
    type text NOT NULL,
    base_amount integer NOT NULL,
    amount integer NOT NULL,
    previous_total integer NOT NULL,
    new_total integer NOT NULL,
    reason text,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT xp_grants_amount_check CHECK ((amount >= 0)),
    CONSTRAINT xp_grants_base_amount_check CHECK ((base_amount >= 0)),
    CONSTRAINT xp_grants_check CHECK ((new_total = (previous_total + amount))),
    CONSTRAINT xp_grants_grant_key_check CHECK ((grant_key <> ''::text)),
    CONSTRAINT xp_grants_previous_total_check CHECK ((previous_total >= 0)),
    CONSTRAINT xp_grants_type_check CHECK ((type = ANY (ARRAY['Map Submission'::text, 'Playtest'::text, 'Guide'::text, 'Completion'::text, 'Record'::text, 'World Record'::text, 'Quest'::text, 'Other'::text, 'Tournament'::text])))
);


--
-- Name: xp_grants_id_seq; Type: SEQUENCE; Schema: lootbox; Owner: -
--

ALTER TABLE lootbox.xp_grants ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lootbox.xp_grants_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: xp_multiplier; Type: TABLE; Schema: lootbox; Owner: -
--

CREATE TABLE lootbox.xp_multiplier (
    id integer DEFAULT 1 NOT NULL,
    value numeric(4,2) DEFAULT 1 NOT NULL,
    CONSTRAINT xp_multiplier_id_check CHECK ((id = 1)),
    CONSTRAINT xp_multiplier_value_check CHECK ((value > (0)::numeric))
);


--
-- Name: creators; Type: TABLE; Schema: maps; Owner: -
--

CREATE TABLE maps.creators (
    map_id integer NOT NULL,
    user_id bigint NOT NULL,
    is_primary boolean DEFAULT false NOT NULL
);


--
-- Name: edit_requests; Type: TABLE; Schema: maps; Owner: -
--

CREATE TABLE maps.edit_requests (
    id integer NOT NULL,
    map_id integer NOT NULL,
    code text NOT NULL,
    proposed_changes jsonb NOT NULL,
    reason text NOT NULL,
    created_by bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    message_id bigint,
    accepted boolean,
    resolved_by bigint,
    resolved_at timestamp with time zone,
    rejection_reason text,
    CONSTRAINT edit_requests_check CHECK (((accepted IS NULL) = (resolved_at IS NULL))),
    CONSTRAINT edit_requests_proposed_changes_check CHECK ((jsonb_typeof(proposed_changes) = 'object'::text))
);


--
-- Name: edit_requests_id_seq; Type: SEQUENCE; Schema: maps; Owner: -
--

ALTER TABLE maps.edit_requests ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME maps.edit_requests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: guides; Type: TABLE; Schema: maps; Owner: -
--

CREATE TABLE maps.guides (
    id integer NOT NULL,
    map_id integer NOT NULL,
    user_id bigint NOT NULL,
    url text NOT NULL,
    inserted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT guides_url_check CHECK ((url ~ '^https?://'::text))
);


--
-- Name: guides_id_seq; Type: SEQUENCE; Schema: maps; Owner: -
--

ALTER TABLE maps.guides ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME maps.guides_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: link_operations; Type: TABLE; Schema: maps; Owner: -
--

CREATE TABLE maps.link_operations (
    id integer NOT NULL,
    official_map_id integer NOT NULL,
    unofficial_map_id integer NOT NULL,
    linked_at timestamp with time zone DEFAULT now() NOT NULL,
    newsfeed_id integer,
    CONSTRAINT link_operations_check CHECK ((official_map_id <> unofficial_map_id))
);


--
-- Name: link_operations_id_seq; Type: SEQUENCE; Schema: maps; Owner: -
--

ALTER TABLE maps.link_operations ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME maps.link_operations_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: mastery; Type: TABLE; Schema: maps; Owner: -
--

CREATE TABLE maps.mastery (
    user_id bigint NOT NULL,
    map_name text NOT NULL,
    level text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: delivery_log; Type: TABLE; Schema: notifications; Owner: -
--

CREATE TABLE notifications.delivery_log (
    id bigint NOT NULL,
    event_id bigint NOT NULL,
    channel text NOT NULL,
    status text NOT NULL,
    attempted_at timestamp with time zone,
    delivered_at timestamp with time zone,
    error_message text,
    CONSTRAINT delivery_log_channel_check CHECK ((channel = ANY (ARRAY['discord_dm'::text, 'discord_ping'::text, 'web'::text]))),
    CONSTRAINT delivery_log_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text, 'skipped'::text])))
);


--
-- Name: delivery_log_id_seq; Type: SEQUENCE; Schema: notifications; Owner: -
--

ALTER TABLE notifications.delivery_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME notifications.delivery_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: events; Type: TABLE; Schema: notifications; Owner: -
--

CREATE TABLE notifications.events (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    event_type text NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    metadata jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    read_at timestamp with time zone,
    dismissed_at timestamp with time zone,
    CONSTRAINT events_event_type_check CHECK ((event_type = ANY (ARRAY['verification_approved'::text, 'verification_rejected'::text, 'record_removed'::text, 'record_edited'::text, 'auto_verify_failed'::text, 'skill_role_update'::text, 'xp_gain'::text, 'rank_up'::text, 'prestige'::text, 'mastery_earned'::text, 'lootbox_earned'::text, 'playtest_update'::text, 'map_edit_approved'::text, 'map_edit_rejected'::text, 'quest_complete'::text, 'quest_rotation'::text, 'quest_rival_mention'::text])))
);


--
-- Name: events_id_seq; Type: SEQUENCE; Schema: notifications; Owner: -
--

ALTER TABLE notifications.events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME notifications.events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: preferences; Type: TABLE; Schema: notifications; Owner: -
--

CREATE TABLE notifications.preferences (
    user_id bigint NOT NULL,
    event_type text NOT NULL,
    channel text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    CONSTRAINT preferences_channel_check CHECK ((channel = ANY (ARRAY['discord_dm'::text, 'discord_ping'::text, 'web'::text]))),
    CONSTRAINT preferences_event_type_check CHECK ((event_type = ANY (ARRAY['verification_approved'::text, 'verification_rejected'::text, 'record_removed'::text, 'record_edited'::text, 'auto_verify_failed'::text, 'skill_role_update'::text, 'xp_gain'::text, 'rank_up'::text, 'prestige'::text, 'mastery_earned'::text, 'lootbox_earned'::text, 'playtest_update'::text, 'map_edit_approved'::text, 'map_edit_rejected'::text, 'quest_complete'::text, 'quest_rotation'::text, 'quest_rival_mention'::text])))
);


--
-- Name: meta; Type: TABLE; Schema: playtests; Owner: -
--

CREATE TABLE playtests.meta (
    id integer NOT NULL,
    map_id integer NOT NULL,
    thread_id bigint,
    verification_id bigint,
    initial_difficulty numeric(4,2),
    completed boolean DEFAULT false NOT NULL,
    reset_generation integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT meta_initial_difficulty_check CHECK (((initial_difficulty >= (0)::numeric) AND (initial_difficulty <= (10)::numeric))),
    CONSTRAINT meta_reset_generation_check CHECK ((reset_generation >= 0))
);


--
-- Name: meta_id_seq; Type: SEQUENCE; Schema: playtests; Owner: -
--

ALTER TABLE playtests.meta ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME playtests.meta_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: transitions; Type: TABLE; Schema: playtests; Owner: -
--

CREATE TABLE playtests.transitions (
    id bigint NOT NULL,
    playtest_id integer NOT NULL,
    kind text NOT NULL,
    actor_id bigint,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT transitions_details_check CHECK ((jsonb_typeof(details) = 'object'::text)),
    CONSTRAINT transitions_kind_check CHECK ((kind = ANY (ARRAY['approve'::text, 'force_accept'::text, 'force_deny'::text, 'reset'::text, 'vote_cast'::text, 'vote_remove'::text])))
);


--
-- Name: transitions_id_seq; Type: SEQUENCE; Schema: playtests; Owner: -
--

ALTER TABLE playtests.transitions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME playtests.transitions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: votes; Type: TABLE; Schema: playtests; Owner: -
--

CREATE TABLE playtests.votes (
    id integer NOT NULL,
    user_id bigint NOT NULL,
    map_id integer NOT NULL,
    playtest_thread_id bigint NOT NULL,
    difficulty numeric(4,2) NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT votes_difficulty_check CHECK (((difficulty >= (0)::numeric) AND (difficulty <= (10)::numeric)))
);


--
-- Name: votes_id_seq; Type: SEQUENCE; Schema: playtests; Owner: -
--

ALTER TABLE playtests.votes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME playtests.votes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: effect_receipts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.effect_receipts (
    job_id uuid NOT NULL,
    effect_key text NOT NULL,
    fingerprint text NOT NULL,
    result jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    completed_at timestamp with time zone,
    CONSTRAINT effect_receipts_effect_key_check CHECK ((effect_key <> ''::text))
);


--
-- Name: job_actions_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.job_actions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.job_actions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: job_event_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.job_event_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: newsfeed; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.newsfeed (
    id integer NOT NULL,
    "timestamp" timestamp with time zone DEFAULT now() NOT NULL,
    payload jsonb NOT NULL,
    event_type text GENERATED ALWAYS AS ((payload ->> 'type'::text)) STORED,
    CONSTRAINT newsfeed_payload_check CHECK (((jsonb_typeof(payload) = 'object'::text) AND ((payload ->> 'type'::text) = ANY (ARRAY['record'::text, 'new_map'::text, 'archive'::text, 'unarchive'::text, 'bulk_archive'::text, 'bulk_unarchive'::text, 'guide'::text, 'legacy_record'::text, 'map_edit'::text, 'role'::text, 'announcement'::text, 'linked_map'::text, 'unlinked_map'::text]))))
);


--
-- Name: newsfeed_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.newsfeed ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.newsfeed_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: payload_contracts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.payload_contracts (
    event_name text NOT NULL,
    payload_version integer NOT NULL,
    nodes public.payload_contract_node[] NOT NULL,
    fast_check jsonpath GENERATED ALWAYS AS (public.payload_fast_check(nodes)) STORED,
    fraction_screen text GENERATED ALWAYS AS (public.payload_fraction_screen(nodes)) STORED,
    CONSTRAINT payload_contracts_nodes_check CHECK ((public.payload_nodes_problem(nodes) IS NULL)),
    CONSTRAINT payload_contracts_payload_version_check CHECK ((payload_version > 0))
)
WITH (toast_tuple_target='8160');


--
-- Name: payload_contract_nodes; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.payload_contract_nodes AS
 SELECT c.event_name,
    c.payload_version,
    n.node,
    n.parent,
    n.role,
    n.field_name,
    n.required,
    n.json_types,
    n.enum_values,
    n.min_length,
    n.max_length,
    n.pattern,
    n.pg_pattern,
    n.format,
    n.minimum,
    n.exclusive_minimum,
    n.maximum,
    n.exclusive_maximum,
    n.multiple_of,
    n.min_items,
    n.max_items,
    n.object_kind,
    n.extra_fields
   FROM (public.payload_contracts c
     CROSS JOIN LATERAL unnest(c.nodes) n(node, parent, role, field_name, required, json_types, enum_values, min_length, max_length, pattern, pg_pattern, format, minimum, exclusive_minimum, maximum, exclusive_maximum, multiple_of, min_items, max_items, object_kind, extra_fields));


--
-- Name: pgqueuer_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.pgqueuer_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: pgqueuer_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.pgqueuer_id_seq OWNED BY public.pgqueuer.id;


--
-- Name: pgqueuer_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pgqueuer_log (
    id bigint NOT NULL,
    created timestamp with time zone DEFAULT now() NOT NULL,
    job_id bigint NOT NULL,
    status public.pgqueuer_status NOT NULL,
    priority integer NOT NULL,
    entrypoint text NOT NULL,
    traceback jsonb,
    aggregated boolean DEFAULT false
);


--
-- Name: pgqueuer_log_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.pgqueuer_log ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.pgqueuer_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: pgqueuer_schedules; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pgqueuer_schedules (
    id bigint NOT NULL,
    expression text NOT NULL,
    entrypoint text NOT NULL,
    heartbeat timestamp with time zone DEFAULT now() NOT NULL,
    created timestamp with time zone DEFAULT now() NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    next_run timestamp with time zone DEFAULT now() NOT NULL,
    last_run timestamp with time zone,
    status public.pgqueuer_status DEFAULT 'queued'::public.pgqueuer_status
);


--
-- Name: pgqueuer_schedules_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.pgqueuer_schedules_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: pgqueuer_schedules_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.pgqueuer_schedules_id_seq OWNED BY public.pgqueuer_schedules.id;


--
-- Name: pgqueuer_statistics; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pgqueuer_statistics (
    id bigint NOT NULL,
    created timestamp with time zone DEFAULT date_trunc('sec'::text, (now() AT TIME ZONE 'UTC'::text)) NOT NULL,
    count bigint NOT NULL,
    priority integer NOT NULL,
    status public.pgqueuer_status NOT NULL,
    entrypoint text NOT NULL
);


--
-- Name: pgqueuer_statistics_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.pgqueuer_statistics_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: pgqueuer_statistics_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.pgqueuer_statistics_id_seq OWNED BY public.pgqueuer_statistics.id;


--
-- Name: processed_messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.processed_messages (
    idempotency_key text NOT NULL,
    processed_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: queue_event_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_event_types (
    event_name text NOT NULL,
    owner text NOT NULL,
    entity_ordered boolean DEFAULT true NOT NULL,
    CONSTRAINT queue_event_types_owner_check CHECK ((owner = ANY (ARRAY['bot'::text, 'api'::text])))
);


--
-- Name: queue_import_dispositions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_import_dispositions (
    source_id text NOT NULL,
    source_queue text NOT NULL,
    disposition text NOT NULL,
    job_id uuid,
    detail text,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    import_id text,
    event_name text,
    event_key text,
    CONSTRAINT queue_import_dispositions_disposition_check CHECK ((disposition = ANY (ARRAY['imported'::text, 'duplicate'::text, 'already_completed'::text, 'malformed'::text, 'unsupported'::text, 'obsolete'::text, 'needs_reconciliation'::text])))
);


--
-- Name: queue_imports; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_imports (
    import_id text NOT NULL,
    manifest_sha256 text NOT NULL,
    exported_at timestamp with time zone,
    source_messages integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT queue_imports_import_id_check CHECK ((import_id ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$'::text)),
    CONSTRAINT queue_imports_source_messages_check CHECK ((source_messages >= 0))
);


--
-- Name: queue_maintenance; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_maintenance (
    task text NOT NULL,
    last_started_at timestamp with time zone,
    last_finished_at timestamp with time zone,
    last_result jsonb,
    CONSTRAINT queue_maintenance_task_check CHECK ((task <> ''::text))
);


--
-- Name: queue_settings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_settings (
    singleton boolean DEFAULT true NOT NULL,
    stale_heartbeat interval DEFAULT '00:01:00'::interval NOT NULL,
    max_reclaims integer DEFAULT 3 NOT NULL,
    CONSTRAINT queue_settings_max_reclaims_check CHECK ((max_reclaims >= 0)),
    CONSTRAINT queue_settings_singleton_check CHECK (singleton),
    CONSTRAINT queue_settings_stale_heartbeat_check CHECK ((stale_heartbeat >= '00:00:01'::interval))
);


--
-- Name: queue_workers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_workers (
    manager_id uuid NOT NULL,
    owner text NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    backend_pid integer NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    beat_at timestamp with time zone DEFAULT now() NOT NULL,
    retry_delays double precision[],
    CONSTRAINT queue_workers_owner_check CHECK ((owner = ANY (ARRAY['bot'::text, 'api'::text])))
);


--
-- Name: categories; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.categories (
    id integer NOT NULL,
    name text NOT NULL,
    difficulties text[] DEFAULT '{}'::text[] NOT NULL,
    participation_xp integer DEFAULT 0 NOT NULL,
    placement_xp jsonb DEFAULT '[]'::jsonb NOT NULL,
    streak_xp jsonb DEFAULT '[]'::jsonb NOT NULL,
    champion_role_id bigint,
    is_active boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT categories_participation_xp_check CHECK ((participation_xp >= 0)),
    CONSTRAINT categories_placement_xp_check CHECK ((jsonb_typeof(placement_xp) = 'array'::text)),
    CONSTRAINT categories_streak_xp_check CHECK ((jsonb_typeof(streak_xp) = 'array'::text))
);


--
-- Name: categories_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.categories ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.categories_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: completions; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.completions (
    id integer NOT NULL,
    cycle_id integer NOT NULL,
    user_id bigint NOT NULL,
    map_id integer NOT NULL,
    "time" numeric(10,2) NOT NULL,
    screenshot text NOT NULL,
    video text,
    inserted_at timestamp with time zone DEFAULT now() NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    verified boolean GENERATED ALWAYS AS ((status = 'verified'::text)) STORED,
    completion boolean GENERATED ALWAYS AS ((video IS NOT NULL)) STORED,
    verification_message_id bigint,
    CONSTRAINT completions_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'verified'::text, 'rejected'::text]))),
    CONSTRAINT completions_time_check CHECK (("time" > (0)::numeric))
);


--
-- Name: completions_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.completions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.completions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: config; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.config (
    id integer DEFAULT 1 NOT NULL,
    cadence text DEFAULT 'weekly'::text NOT NULL,
    anchor_weekday integer DEFAULT 0 NOT NULL,
    anchor_time time without time zone DEFAULT '18:00:00'::time without time zone NOT NULL,
    anchor_tz text DEFAULT 'UTC'::text NOT NULL,
    transitions_paused boolean DEFAULT false NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT config_anchor_weekday_check CHECK (((anchor_weekday >= 0) AND (anchor_weekday <= 6))),
    CONSTRAINT config_cadence_check CHECK ((cadence = ANY (ARRAY['weekly'::text, 'biweekly'::text]))),
    CONSTRAINT config_id_check CHECK ((id = 1))
);


--
-- Name: cycles; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.cycles (
    id integer NOT NULL,
    edition_id integer NOT NULL,
    category_id integer NOT NULL,
    map_id integer NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    started_at timestamp with time zone,
    ended_at timestamp with time zone,
    replaced_by integer,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT cycles_check CHECK (((replaced_by IS NULL) OR (replaced_by <> id))),
    CONSTRAINT cycles_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'active'::text, 'finalizing'::text, 'completed'::text, 'replaced'::text])))
);


--
-- Name: cycles_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.cycles ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.cycles_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: editions; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.editions (
    id integer NOT NULL,
    started_at timestamp with time zone NOT NULL,
    ends_at timestamp with time zone NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    start_announced boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT editions_check CHECK ((ends_at > started_at)),
    CONSTRAINT editions_status_check CHECK ((status = ANY (ARRAY['active'::text, 'awaiting_results'::text, 'completed'::text])))
);


--
-- Name: editions_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.editions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.editions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: ocr_decisions; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.ocr_decisions (
    tournament_completion_id integer NOT NULL,
    outcome text NOT NULL,
    extracted jsonb,
    decided_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ocr_decisions_extracted_check CHECK ((jsonb_typeof(extracted) = 'object'::text)),
    CONSTRAINT ocr_decisions_extracted_unless_error CHECK (((outcome = 'error'::text) = (extracted IS NULL))),
    CONSTRAINT ocr_decisions_outcome_check CHECK ((outcome = ANY (ARRAY['match'::text, 'mismatch'::text, 'error'::text])))
);


--
-- Name: pending_transitions; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.pending_transitions (
    id bigint NOT NULL,
    cycle_id integer,
    edition_id integer NOT NULL,
    event_type text NOT NULL,
    payload jsonb NOT NULL,
    published boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pending_transitions_event_type_check CHECK ((event_type = ANY (ARRAY['cycle_started'::text, 'cycle_completed'::text, 'edition_rollover'::text, 'edition_results'::text])))
);


--
-- Name: pending_transitions_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.pending_transitions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.pending_transitions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: streaks; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.streaks (
    id integer NOT NULL,
    user_id bigint NOT NULL,
    current_streak integer DEFAULT 0 NOT NULL,
    max_streak integer DEFAULT 0 NOT NULL,
    last_cycle_id integer,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT streaks_current_streak_check CHECK ((current_streak >= 0)),
    CONSTRAINT streaks_max_streak_check CHECK ((max_streak >= 0))
);


--
-- Name: streaks_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.streaks ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.streaks_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: verdicts; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.verdicts (
    id bigint NOT NULL,
    tournament_completion_id integer NOT NULL,
    verified boolean NOT NULL,
    verified_by bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: verdicts_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.verdicts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.verdicts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: xp_grants; Type: TABLE; Schema: tournaments; Owner: -
--

CREATE TABLE tournaments.xp_grants (
    id bigint NOT NULL,
    cycle_id integer NOT NULL,
    user_id bigint NOT NULL,
    reason text NOT NULL,
    amount integer NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT xp_grants_reason_check CHECK ((reason = ANY (ARRAY['participation'::text, 'placement'::text, 'streak'::text])))
);


--
-- Name: xp_grants_id_seq; Type: SEQUENCE; Schema: tournaments; Owner: -
--

ALTER TABLE tournaments.xp_grants ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME tournaments.xp_grants_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: overwatch_usernames; Type: TABLE; Schema: users; Owner: -
--

CREATE TABLE users.overwatch_usernames (
    id integer NOT NULL,
    user_id bigint NOT NULL,
    username text NOT NULL,
    is_primary boolean DEFAULT false NOT NULL,
    CONSTRAINT overwatch_usernames_username_check CHECK ((username <> ''::text))
);


--
-- Name: overwatch_usernames_id_seq; Type: SEQUENCE; Schema: users; Owner: -
--

ALTER TABLE users.overwatch_usernames ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME users.overwatch_usernames_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: suspicious_flags; Type: TABLE; Schema: users; Owner: -
--

CREATE TABLE users.suspicious_flags (
    id integer NOT NULL,
    user_id bigint NOT NULL,
    completion_id integer,
    context text,
    flag_type text NOT NULL,
    flagged_by bigint,
    inserted_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: suspicious_flags_id_seq; Type: SEQUENCE; Schema: users; Owner: -
--

ALTER TABLE users.suspicious_flags ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME users.suspicious_flags_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: pgqueuer id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer ALTER COLUMN id SET DEFAULT nextval('public.pgqueuer_id_seq'::regclass);


--
-- Name: pgqueuer_schedules id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer_schedules ALTER COLUMN id SET DEFAULT nextval('public.pgqueuer_schedules_id_seq'::regclass);


--
-- Name: pgqueuer_statistics id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer_statistics ALTER COLUMN id SET DEFAULT nextval('public.pgqueuer_statistics_id_seq'::regclass);


--
-- Name: api_tokens api_tokens_key_hash_key; Type: CONSTRAINT; Schema: auth; Owner: -
--

ALTER TABLE ONLY auth.api_tokens
    ADD CONSTRAINT api_tokens_key_hash_key UNIQUE (key_hash);


--
-- Name: api_tokens api_tokens_pkey; Type: CONSTRAINT; Schema: auth; Owner: -
--

ALTER TABLE ONLY auth.api_tokens
    ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (id);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: auth; Owner: -
--

ALTER TABLE ONLY auth.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: users users_username_key; Type: CONSTRAINT; Schema: auth; Owner: -
--

ALTER TABLE ONLY auth.users
    ADD CONSTRAINT users_username_key UNIQUE (username);


--
-- Name: ocr_decisions ocr_decisions_pkey; Type: CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.ocr_decisions
    ADD CONSTRAINT ocr_decisions_pkey PRIMARY KEY (completion_id);


--
-- Name: upvotes upvotes_message_id_user_id_unique; Type: CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.upvotes
    ADD CONSTRAINT upvotes_message_id_user_id_unique UNIQUE (message_id, user_id);


--
-- Name: upvotes upvotes_pkey; Type: CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.upvotes
    ADD CONSTRAINT upvotes_pkey PRIMARY KEY (id);


--
-- Name: verification_transitions verification_transitions_pkey; Type: CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.verification_transitions
    ADD CONSTRAINT verification_transitions_pkey PRIMARY KEY (id);


--
-- Name: completions completions_map_id_user_id_inserted_at_unique; Type: CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.completions
    ADD CONSTRAINT completions_map_id_user_id_inserted_at_unique UNIQUE (map_id, user_id, inserted_at);


--
-- Name: completions completions_message_id_key; Type: CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.completions
    ADD CONSTRAINT completions_message_id_key UNIQUE (message_id);


--
-- Name: completions completions_pkey; Type: CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.completions
    ADD CONSTRAINT completions_pkey PRIMARY KEY (id);


--
-- Name: maps maps_code_key; Type: CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.maps
    ADD CONSTRAINT maps_code_key UNIQUE (code);


--
-- Name: maps maps_pkey; Type: CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.maps
    ADD CONSTRAINT maps_pkey PRIMARY KEY (id);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: active_key active_key_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.active_key
    ADD CONSTRAINT active_key_pkey PRIMARY KEY (id);


--
-- Name: key_types key_types_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.key_types
    ADD CONSTRAINT key_types_pkey PRIMARY KEY (name);


--
-- Name: main_tiers main_tiers_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.main_tiers
    ADD CONSTRAINT main_tiers_pkey PRIMARY KEY (threshold);


--
-- Name: sub_tiers sub_tiers_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.sub_tiers
    ADD CONSTRAINT sub_tiers_pkey PRIMARY KEY (threshold);


--
-- Name: user_keys user_keys_grant_key_item_unique; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.user_keys
    ADD CONSTRAINT user_keys_grant_key_item_unique UNIQUE (grant_key, item);


--
-- Name: user_keys user_keys_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.user_keys
    ADD CONSTRAINT user_keys_pkey PRIMARY KEY (id);


--
-- Name: xp_grants xp_grants_grant_key_key; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.xp_grants
    ADD CONSTRAINT xp_grants_grant_key_key UNIQUE (grant_key);


--
-- Name: xp_grants xp_grants_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.xp_grants
    ADD CONSTRAINT xp_grants_pkey PRIMARY KEY (id);


--
-- Name: xp_multiplier xp_multiplier_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.xp_multiplier
    ADD CONSTRAINT xp_multiplier_pkey PRIMARY KEY (id);


--
-- Name: xp xp_pkey; Type: CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.xp
    ADD CONSTRAINT xp_pkey PRIMARY KEY (user_id);


--
-- Name: creators creators_pkey; Type: CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.creators
    ADD CONSTRAINT creators_pkey PRIMARY KEY (map_id, user_id);


--
-- Name: edit_requests edit_requests_pkey; Type: CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.edit_requests
    ADD CONSTRAINT edit_requests_pkey PRIMARY KEY (id);


--
-- Name: guides guides_pkey; Type: CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.guides
    ADD CONSTRAINT guides_pkey PRIMARY KEY (id);


--
-- Name: guides guides_user_id_map_id_unique; Type: CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.guides
    ADD CONSTRAINT guides_user_id_map_id_unique UNIQUE (user_id, map_id);


--
-- Name: link_operations link_operations_pkey; Type: CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.link_operations
    ADD CONSTRAINT link_operations_pkey PRIMARY KEY (id);


--
-- Name: mastery mastery_pkey; Type: CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.mastery
    ADD CONSTRAINT mastery_pkey PRIMARY KEY (user_id, map_name);


--
-- Name: delivery_log delivery_log_event_id_channel_unique; Type: CONSTRAINT; Schema: notifications; Owner: -
--

ALTER TABLE ONLY notifications.delivery_log
    ADD CONSTRAINT delivery_log_event_id_channel_unique UNIQUE (event_id, channel);


--
-- Name: delivery_log delivery_log_pkey; Type: CONSTRAINT; Schema: notifications; Owner: -
--

ALTER TABLE ONLY notifications.delivery_log
    ADD CONSTRAINT delivery_log_pkey PRIMARY KEY (id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: notifications; Owner: -
--

ALTER TABLE ONLY notifications.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: preferences preferences_pkey; Type: CONSTRAINT; Schema: notifications; Owner: -
--

ALTER TABLE ONLY notifications.preferences
    ADD CONSTRAINT preferences_pkey PRIMARY KEY (user_id, event_type, channel);


--
-- Name: meta meta_pkey; Type: CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.meta
    ADD CONSTRAINT meta_pkey PRIMARY KEY (id);


--
-- Name: meta meta_thread_id_key; Type: CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.meta
    ADD CONSTRAINT meta_thread_id_key UNIQUE (thread_id);


--
-- Name: transitions transitions_pkey; Type: CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.transitions
    ADD CONSTRAINT transitions_pkey PRIMARY KEY (id);


--
-- Name: votes votes_pkey; Type: CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.votes
    ADD CONSTRAINT votes_pkey PRIMARY KEY (id);


--
-- Name: votes votes_user_id_map_id_playtest_thread_id_unique; Type: CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.votes
    ADD CONSTRAINT votes_user_id_map_id_playtest_thread_id_unique UNIQUE (user_id, map_id, playtest_thread_id);


--
-- Name: effect_bindings effect_bindings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.effect_bindings
    ADD CONSTRAINT effect_bindings_pkey PRIMARY KEY (job_id, effect_key, destination);


--
-- Name: effect_receipts effect_receipts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.effect_receipts
    ADD CONSTRAINT effect_receipts_pkey PRIMARY KEY (job_id, effect_key);


--
-- Name: job_actions job_actions_idempotency_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_actions
    ADD CONSTRAINT job_actions_idempotency_key_key UNIQUE (idempotency_key);


--
-- Name: job_actions job_actions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_actions
    ADD CONSTRAINT job_actions_pkey PRIMARY KEY (id);


--
-- Name: job_alert_episodes job_alert_episodes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_alert_episodes
    ADD CONSTRAINT job_alert_episodes_pkey PRIMARY KEY (job_id, retry_generation);


--
-- Name: job_alerts job_alerts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_alerts
    ADD CONSTRAINT job_alerts_pkey PRIMARY KEY (job_id);


--
-- Name: jobs jobs_action_event_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_action_event_key_key UNIQUE (action, event_key);


--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (id);


--
-- Name: jobs jobs_queue_job_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_queue_job_id_key UNIQUE (queue_job_id);


--
-- Name: newsfeed newsfeed_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.newsfeed
    ADD CONSTRAINT newsfeed_pkey PRIMARY KEY (id);


--
-- Name: payload_contracts payload_contracts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payload_contracts
    ADD CONSTRAINT payload_contracts_pkey PRIMARY KEY (event_name, payload_version);


--
-- Name: pgqueuer_log pgqueuer_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer_log
    ADD CONSTRAINT pgqueuer_log_pkey PRIMARY KEY (id);


--
-- Name: pgqueuer pgqueuer_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer
    ADD CONSTRAINT pgqueuer_pkey PRIMARY KEY (id);


--
-- Name: pgqueuer_schedules pgqueuer_schedules_expression_entrypoint_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer_schedules
    ADD CONSTRAINT pgqueuer_schedules_expression_entrypoint_key UNIQUE (expression, entrypoint);


--
-- Name: pgqueuer_schedules pgqueuer_schedules_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer_schedules
    ADD CONSTRAINT pgqueuer_schedules_pkey PRIMARY KEY (id);


--
-- Name: pgqueuer_statistics pgqueuer_statistics_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pgqueuer_statistics
    ADD CONSTRAINT pgqueuer_statistics_pkey PRIMARY KEY (id);


--
-- Name: processed_messages processed_messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.processed_messages
    ADD CONSTRAINT processed_messages_pkey PRIMARY KEY (idempotency_key);


--
-- Name: queue_event_types queue_event_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_event_types
    ADD CONSTRAINT queue_event_types_pkey PRIMARY KEY (event_name);


--
-- Name: queue_import_dispositions queue_import_dispositions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_import_dispositions
    ADD CONSTRAINT queue_import_dispositions_pkey PRIMARY KEY (source_id);


--
-- Name: queue_imports queue_imports_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_imports
    ADD CONSTRAINT queue_imports_pkey PRIMARY KEY (import_id);


--
-- Name: queue_maintenance queue_maintenance_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_maintenance
    ADD CONSTRAINT queue_maintenance_pkey PRIMARY KEY (task);


--
-- Name: queue_settings queue_settings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_settings
    ADD CONSTRAINT queue_settings_pkey PRIMARY KEY (singleton);


--
-- Name: queue_workers queue_workers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_workers
    ADD CONSTRAINT queue_workers_pkey PRIMARY KEY (manager_id);


--
-- Name: categories categories_name_key; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.categories
    ADD CONSTRAINT categories_name_key UNIQUE (name);


--
-- Name: categories categories_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.categories
    ADD CONSTRAINT categories_pkey PRIMARY KEY (id);


--
-- Name: completions completions_cycle_id_user_id_inserted_at_unique; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.completions
    ADD CONSTRAINT completions_cycle_id_user_id_inserted_at_unique UNIQUE (cycle_id, user_id, inserted_at);


--
-- Name: completions completions_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.completions
    ADD CONSTRAINT completions_pkey PRIMARY KEY (id);


--
-- Name: config config_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.config
    ADD CONSTRAINT config_pkey PRIMARY KEY (id);


--
-- Name: cycles cycles_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.cycles
    ADD CONSTRAINT cycles_pkey PRIMARY KEY (id);


--
-- Name: editions editions_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.editions
    ADD CONSTRAINT editions_pkey PRIMARY KEY (id);


--
-- Name: ocr_decisions ocr_decisions_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.ocr_decisions
    ADD CONSTRAINT ocr_decisions_pkey PRIMARY KEY (tournament_completion_id);


--
-- Name: pending_transitions pending_transitions_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.pending_transitions
    ADD CONSTRAINT pending_transitions_pkey PRIMARY KEY (id);


--
-- Name: streaks streaks_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.streaks
    ADD CONSTRAINT streaks_pkey PRIMARY KEY (id);


--
-- Name: streaks streaks_user_id_key; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.streaks
    ADD CONSTRAINT streaks_user_id_key UNIQUE (user_id);


--
-- Name: verdicts verdicts_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.verdicts
    ADD CONSTRAINT verdicts_pkey PRIMARY KEY (id);


--
-- Name: xp_grants xp_grants_cycle_id_user_id_reason_unique; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.xp_grants
    ADD CONSTRAINT xp_grants_cycle_id_user_id_reason_unique UNIQUE (cycle_id, user_id, reason);


--
-- Name: xp_grants xp_grants_pkey; Type: CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.xp_grants
    ADD CONSTRAINT xp_grants_pkey PRIMARY KEY (id);


--
-- Name: overwatch_usernames overwatch_usernames_pkey; Type: CONSTRAINT; Schema: users; Owner: -
--

ALTER TABLE ONLY users.overwatch_usernames
    ADD CONSTRAINT overwatch_usernames_pkey PRIMARY KEY (id);


--
-- Name: overwatch_usernames overwatch_usernames_user_id_username_unique; Type: CONSTRAINT; Schema: users; Owner: -
--

ALTER TABLE ONLY users.overwatch_usernames
    ADD CONSTRAINT overwatch_usernames_user_id_username_unique UNIQUE (user_id, username);


--
-- Name: suspicious_flags suspicious_flags_pkey; Type: CONSTRAINT; Schema: users; Owner: -
--

ALTER TABLE ONLY users.suspicious_flags
    ADD CONSTRAINT suspicious_flags_pkey PRIMARY KEY (id);


--
-- Name: api_tokens_user_id; Type: INDEX; Schema: auth; Owner: -
--

CREATE INDEX api_tokens_user_id ON auth.api_tokens USING btree (user_id);


--
-- Name: verification_transitions_completion_id; Type: INDEX; Schema: completions; Owner: -
--

CREATE INDEX verification_transitions_completion_id ON completions.verification_transitions USING btree (completion_id);


--
-- Name: completions_pending; Type: INDEX; Schema: core; Owner: -
--

CREATE INDEX completions_pending ON core.completions USING btree (inserted_at) WHERE ((NOT verified) AND (verified_by IS NULL));


--
-- Name: completions_user_id_map_id; Type: INDEX; Schema: core; Owner: -
--

CREATE INDEX completions_user_id_map_id ON core.completions USING btree (user_id, map_id);


--
-- Name: maps_linked_code; Type: INDEX; Schema: core; Owner: -
--

CREATE INDEX maps_linked_code ON core.maps USING btree (linked_code) WHERE (linked_code IS NOT NULL);


--
-- Name: user_keys_user_id; Type: INDEX; Schema: lootbox; Owner: -
--

CREATE INDEX user_keys_user_id ON lootbox.user_keys USING btree (user_id);


--
-- Name: xp_grants_user_id; Type: INDEX; Schema: lootbox; Owner: -
--

CREATE INDEX xp_grants_user_id ON lootbox.xp_grants USING btree (user_id);


--
-- Name: creators_one_primary_per_map; Type: INDEX; Schema: maps; Owner: -
--

CREATE UNIQUE INDEX creators_one_primary_per_map ON maps.creators USING btree (map_id) WHERE is_primary;


--
-- Name: creators_user_id; Type: INDEX; Schema: maps; Owner: -
--

CREATE INDEX creators_user_id ON maps.creators USING btree (user_id);


--
-- Name: edit_requests_one_pending_per_map; Type: INDEX; Schema: maps; Owner: -
--

CREATE UNIQUE INDEX edit_requests_one_pending_per_map ON maps.edit_requests USING btree (map_id) WHERE (accepted IS NULL);


--
-- Name: guides_map_id; Type: INDEX; Schema: maps; Owner: -
--

CREATE INDEX guides_map_id ON maps.guides USING btree (map_id);


--
-- Name: events_user_id_active; Type: INDEX; Schema: notifications; Owner: -
--

CREATE INDEX events_user_id_active ON notifications.events USING btree (user_id, created_at DESC) WHERE (dismissed_at IS NULL);


--
-- Name: events_user_id_unread; Type: INDEX; Schema: notifications; Owner: -
--

CREATE INDEX events_user_id_unread ON notifications.events USING btree (user_id, created_at DESC) WHERE ((read_at IS NULL) AND (dismissed_at IS NULL));


--
-- Name: meta_one_open_playtest_per_map; Type: INDEX; Schema: playtests; Owner: -
--

CREATE UNIQUE INDEX meta_one_open_playtest_per_map ON playtests.meta USING btree (map_id) WHERE (NOT completed);


--
-- Name: transitions_playtest_id; Type: INDEX; Schema: playtests; Owner: -
--

CREATE INDEX transitions_playtest_id ON playtests.transitions USING btree (playtest_id);


--
-- Name: votes_playtest_thread_id; Type: INDEX; Schema: playtests; Owner: -
--

CREATE INDEX votes_playtest_thread_id ON playtests.votes USING btree (playtest_thread_id);


--
-- Name: effect_bindings_uncertain_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX effect_bindings_uncertain_idx ON public.effect_bindings USING btree (job_id) WHERE (state = 'uncertain'::text);


--
-- Name: job_actions_job_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX job_actions_job_id_idx ON public.job_actions USING btree (job_id);


--
-- Name: jobs_depends_on_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_depends_on_idx ON public.jobs USING btree (depends_on) WHERE (depends_on IS NOT NULL);


--
-- Name: jobs_entity_key_event_seq_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_entity_key_event_seq_idx ON public.jobs USING btree (entity_key, event_seq) INCLUDE (queue_job_id, action) WHERE ((entity_key IS NOT NULL) AND (finished_at IS NULL));


--
-- Name: jobs_status_created_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_status_created_at_idx ON public.jobs USING btree (status, created_at);


--
-- Name: newsfeed_event_type; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX newsfeed_event_type ON public.newsfeed USING btree (event_type);


--
-- Name: newsfeed_id_desc; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX newsfeed_id_desc ON public.newsfeed USING btree (id DESC);


--
-- Name: pgqueuer_ep_ea_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_ep_ea_idx ON public.pgqueuer USING btree (entrypoint, execute_after) WHERE (status = 'queued'::public.pgqueuer_status);


--
-- Name: pgqueuer_ep_prio_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_ep_prio_id_idx ON public.pgqueuer USING btree (entrypoint, priority DESC, id) WHERE (status = 'queued'::public.pgqueuer_status);


--
-- Name: pgqueuer_log_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_log_created ON public.pgqueuer_log USING btree (created);


--
-- Name: pgqueuer_log_job_id_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_log_job_id_status ON public.pgqueuer_log USING btree (job_id, created DESC);


--
-- Name: pgqueuer_log_not_aggregated; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_log_not_aggregated ON public.pgqueuer_log USING btree (entrypoint, priority, status, created) WHERE (NOT aggregated);


--
-- Name: pgqueuer_log_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_log_status ON public.pgqueuer_log USING btree (status);


--
-- Name: pgqueuer_one_running_per_entrypoint; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX pgqueuer_one_running_per_entrypoint ON public.pgqueuer USING btree (entrypoint) WHERE (status = 'picked'::public.pgqueuer_status);


--
-- Name: pgqueuer_priority_id_id1_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_priority_id_id1_idx ON public.pgqueuer USING btree (priority, id DESC) INCLUDE (id) WHERE (status = 'queued'::public.pgqueuer_status);


--
-- Name: pgqueuer_queue_manager_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_queue_manager_id_idx ON public.pgqueuer USING btree (queue_manager_id) WHERE (queue_manager_id IS NOT NULL);


--
-- Name: pgqueuer_statistics_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_statistics_created ON public.pgqueuer_statistics USING btree (created);


--
-- Name: pgqueuer_statistics_unique_count; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX pgqueuer_statistics_unique_count ON public.pgqueuer_statistics USING btree (priority, date_trunc('sec'::text, (created AT TIME ZONE 'UTC'::text)), status, entrypoint);


--
-- Name: pgqueuer_unique_dedupe_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX pgqueuer_unique_dedupe_key ON public.pgqueuer USING btree (dedupe_key) WHERE ((status = ANY (ARRAY['queued'::public.pgqueuer_status, 'picked'::public.pgqueuer_status])) AND (dedupe_key IS NOT NULL));


--
-- Name: pgqueuer_updated_id_id1_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pgqueuer_updated_id_id1_idx ON public.pgqueuer USING btree (updated, id DESC) INCLUDE (id) WHERE (status = 'picked'::public.pgqueuer_status);


--
-- Name: queue_import_dispositions_import_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queue_import_dispositions_import_idx ON public.queue_import_dispositions USING btree (import_id, disposition);


--
-- Name: completions_cycle_id_user_id; Type: INDEX; Schema: tournaments; Owner: -
--

CREATE INDEX completions_cycle_id_user_id ON tournaments.completions USING btree (cycle_id, user_id);


--
-- Name: cycles_one_active_per_edition_category; Type: INDEX; Schema: tournaments; Owner: -
--

CREATE UNIQUE INDEX cycles_one_active_per_edition_category ON tournaments.cycles USING btree (edition_id, category_id) WHERE (status = 'active'::text);


--
-- Name: pending_transitions_unpublished; Type: INDEX; Schema: tournaments; Owner: -
--

CREATE INDEX pending_transitions_unpublished ON tournaments.pending_transitions USING btree (created_at) WHERE (NOT published);


--
-- Name: verdicts_tournament_completion_id; Type: INDEX; Schema: tournaments; Owner: -
--

CREATE INDEX verdicts_tournament_completion_id ON tournaments.verdicts USING btree (tournament_completion_id);


--
-- Name: overwatch_usernames_one_primary_per_user; Type: INDEX; Schema: users; Owner: -
--

CREATE UNIQUE INDEX overwatch_usernames_one_primary_per_user ON users.overwatch_usernames USING btree (user_id) WHERE is_primary;


--
-- Name: suspicious_flags_user_id; Type: INDEX; Schema: users; Owner: -
--

CREATE INDEX suspicious_flags_user_id ON users.suspicious_flags USING btree (user_id);


--
-- Name: completions completions_must_beat_personal_best; Type: TRIGGER; Schema: core; Owner: -
--

CREATE TRIGGER completions_must_beat_personal_best BEFORE INSERT ON core.completions FOR EACH ROW EXECUTE FUNCTION core.completions_must_beat_personal_best();


--
-- Name: maps maps_keep_links_symmetric; Type: TRIGGER; Schema: core; Owner: -
--

CREATE TRIGGER maps_keep_links_symmetric AFTER INSERT OR UPDATE ON core.maps FOR EACH ROW EXECUTE FUNCTION core.maps_keep_links_symmetric();


--
-- Name: maps maps_set_difficulty; Type: TRIGGER; Schema: core; Owner: -
--

CREATE TRIGGER maps_set_difficulty BEFORE INSERT OR UPDATE ON core.maps FOR EACH ROW EXECUTE FUNCTION core.maps_set_difficulty();


--
-- Name: maps maps_set_updated_at; Type: TRIGGER; Schema: core; Owner: -
--

CREATE TRIGGER maps_set_updated_at BEFORE UPDATE ON core.maps FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();


--
-- Name: meta meta_set_updated_at; Type: TRIGGER; Schema: playtests; Owner: -
--

CREATE TRIGGER meta_set_updated_at BEFORE UPDATE ON playtests.meta FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();


--
-- Name: votes votes_require_verified_completion; Type: TRIGGER; Schema: playtests; Owner: -
--

CREATE TRIGGER votes_require_verified_completion BEFORE INSERT OR UPDATE ON playtests.votes FOR EACH ROW EXECUTE FUNCTION playtests.votes_require_verified_completion();


--
-- Name: votes votes_set_updated_at; Type: TRIGGER; Schema: playtests; Owner: -
--

CREATE TRIGGER votes_set_updated_at BEFORE UPDATE ON playtests.votes FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();


--
-- Name: effect_receipts effect_receipts_completed_at_commit; Type: TRIGGER; Schema: public; Owner: -
--

CREATE CONSTRAINT TRIGGER effect_receipts_completed_at_commit AFTER INSERT ON public.effect_receipts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.effect_receipt_require_completion();


--
-- Name: pgqueuer pgqueuer_held_rows_discard_through_recovery; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pgqueuer_held_rows_discard_through_recovery BEFORE DELETE ON public.pgqueuer FOR EACH ROW WHEN ((old.status = 'failed'::public.pgqueuer_status)) EXECUTE FUNCTION public.recovery_guard_held_row();


--
-- Name: pgqueuer pgqueuer_held_rows_requeue_through_recovery; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pgqueuer_held_rows_requeue_through_recovery BEFORE UPDATE OF status ON public.pgqueuer FOR EACH ROW WHEN (((old.status = 'failed'::public.pgqueuer_status) AND (new.status <> 'failed'::public.pgqueuer_status))) EXECUTE FUNCTION public.recovery_guard_held_row();


--
-- Name: pgqueuer pgqueuer_rows_have_identity; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pgqueuer_rows_have_identity AFTER INSERT ON public.pgqueuer REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION public.recovery_guard_identity();


--
-- Name: pgqueuer pgqueuer_truncate_keeps_held_rows; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pgqueuer_truncate_keeps_held_rows BEFORE TRUNCATE ON public.pgqueuer FOR EACH STATEMENT EXECUTE FUNCTION public.recovery_guard_truncate();


--
-- Name: pgqueuer tg_pgqueuer_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tg_pgqueuer_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.pgqueuer FOR EACH STATEMENT EXECUTE FUNCTION public.fn_pgqueuer_changed();


--
-- Name: completions completions_verified_is_terminal; Type: TRIGGER; Schema: tournaments; Owner: -
--

CREATE TRIGGER completions_verified_is_terminal BEFORE UPDATE OF status ON tournaments.completions FOR EACH ROW EXECUTE FUNCTION tournaments.completions_verified_is_terminal();


--
-- Name: config config_set_updated_at; Type: TRIGGER; Schema: tournaments; Owner: -
--

CREATE TRIGGER config_set_updated_at BEFORE UPDATE ON tournaments.config FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();


--
-- Name: streaks streaks_set_updated_at; Type: TRIGGER; Schema: tournaments; Owner: -
--

CREATE TRIGGER streaks_set_updated_at BEFORE UPDATE ON tournaments.streaks FOR EACH ROW EXECUTE FUNCTION core.set_updated_at();


--
-- Name: api_tokens api_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: auth; Owner: -
--

ALTER TABLE ONLY auth.api_tokens
    ADD CONSTRAINT api_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id);


--
-- Name: ocr_decisions ocr_decisions_completion_id_fkey; Type: FK CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.ocr_decisions
    ADD CONSTRAINT ocr_decisions_completion_id_fkey FOREIGN KEY (completion_id) REFERENCES core.completions(id) ON DELETE CASCADE;


--
-- Name: upvotes upvotes_message_id_fkey; Type: FK CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.upvotes
    ADD CONSTRAINT upvotes_message_id_fkey FOREIGN KEY (message_id) REFERENCES core.completions(message_id);


--
-- Name: upvotes upvotes_user_id_fkey; Type: FK CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.upvotes
    ADD CONSTRAINT upvotes_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: verification_transitions verification_transitions_completion_id_fkey; Type: FK CONSTRAINT; Schema: completions; Owner: -
--

ALTER TABLE ONLY completions.verification_transitions
    ADD CONSTRAINT verification_transitions_completion_id_fkey FOREIGN KEY (completion_id) REFERENCES core.completions(id) ON DELETE CASCADE;


--
-- Name: completions completions_map_id_fkey; Type: FK CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.completions
    ADD CONSTRAINT completions_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id);


--
-- Name: completions completions_tournament_completion_id_fkey; Type: FK CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.completions
    ADD CONSTRAINT completions_tournament_completion_id_fkey FOREIGN KEY (tournament_completion_id) REFERENCES tournaments.completions(id);


--
-- Name: completions completions_user_id_fkey; Type: FK CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.completions
    ADD CONSTRAINT completions_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: completions completions_verified_by_fkey; Type: FK CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.completions
    ADD CONSTRAINT completions_verified_by_fkey FOREIGN KEY (verified_by) REFERENCES core.users(id);


--
-- Name: maps maps_linked_code_fkey; Type: FK CONSTRAINT; Schema: core; Owner: -
--

ALTER TABLE ONLY core.maps
    ADD CONSTRAINT maps_linked_code_fkey FOREIGN KEY (linked_code) REFERENCES core.maps(code) ON UPDATE CASCADE ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;


--
-- Name: active_key active_key_key_type_fkey; Type: FK CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.active_key
    ADD CONSTRAINT active_key_key_type_fkey FOREIGN KEY (key_type) REFERENCES lootbox.key_types(name);


--
-- Name: user_keys user_keys_key_type_fkey; Type: FK CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.user_keys
    ADD CONSTRAINT user_keys_key_type_fkey FOREIGN KEY (key_type) REFERENCES lootbox.key_types(name);


--
-- Name: user_keys user_keys_user_id_fkey; Type: FK CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.user_keys
    ADD CONSTRAINT user_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: xp_grants xp_grants_user_id_fkey; Type: FK CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.xp_grants
    ADD CONSTRAINT xp_grants_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: xp xp_user_id_fkey; Type: FK CONSTRAINT; Schema: lootbox; Owner: -
--

ALTER TABLE ONLY lootbox.xp
    ADD CONSTRAINT xp_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: creators creators_map_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.creators
    ADD CONSTRAINT creators_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id) ON DELETE CASCADE;


--
-- Name: creators creators_user_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.creators
    ADD CONSTRAINT creators_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: edit_requests edit_requests_created_by_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.edit_requests
    ADD CONSTRAINT edit_requests_created_by_fkey FOREIGN KEY (created_by) REFERENCES core.users(id);


--
-- Name: edit_requests edit_requests_map_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.edit_requests
    ADD CONSTRAINT edit_requests_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id);


--
-- Name: edit_requests edit_requests_resolved_by_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.edit_requests
    ADD CONSTRAINT edit_requests_resolved_by_fkey FOREIGN KEY (resolved_by) REFERENCES core.users(id);


--
-- Name: guides guides_map_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.guides
    ADD CONSTRAINT guides_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id) ON DELETE CASCADE;


--
-- Name: guides guides_user_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.guides
    ADD CONSTRAINT guides_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: link_operations link_operations_newsfeed_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.link_operations
    ADD CONSTRAINT link_operations_newsfeed_id_fkey FOREIGN KEY (newsfeed_id) REFERENCES public.newsfeed(id);


--
-- Name: link_operations link_operations_official_map_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.link_operations
    ADD CONSTRAINT link_operations_official_map_id_fkey FOREIGN KEY (official_map_id) REFERENCES core.maps(id);


--
-- Name: link_operations link_operations_unofficial_map_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.link_operations
    ADD CONSTRAINT link_operations_unofficial_map_id_fkey FOREIGN KEY (unofficial_map_id) REFERENCES core.maps(id);


--
-- Name: mastery mastery_user_id_fkey; Type: FK CONSTRAINT; Schema: maps; Owner: -
--

ALTER TABLE ONLY maps.mastery
    ADD CONSTRAINT mastery_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: delivery_log delivery_log_event_id_fkey; Type: FK CONSTRAINT; Schema: notifications; Owner: -
--

ALTER TABLE ONLY notifications.delivery_log
    ADD CONSTRAINT delivery_log_event_id_fkey FOREIGN KEY (event_id) REFERENCES notifications.events(id) ON DELETE CASCADE;


--
-- Name: events events_user_id_fkey; Type: FK CONSTRAINT; Schema: notifications; Owner: -
--

ALTER TABLE ONLY notifications.events
    ADD CONSTRAINT events_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: preferences preferences_user_id_fkey; Type: FK CONSTRAINT; Schema: notifications; Owner: -
--

ALTER TABLE ONLY notifications.preferences
    ADD CONSTRAINT preferences_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: meta meta_map_id_fkey; Type: FK CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.meta
    ADD CONSTRAINT meta_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id);


--
-- Name: transitions transitions_playtest_id_fkey; Type: FK CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.transitions
    ADD CONSTRAINT transitions_playtest_id_fkey FOREIGN KEY (playtest_id) REFERENCES playtests.meta(id);


--
-- Name: votes votes_map_id_fkey; Type: FK CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.votes
    ADD CONSTRAINT votes_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id);


--
-- Name: votes votes_playtest_thread_id_fkey; Type: FK CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.votes
    ADD CONSTRAINT votes_playtest_thread_id_fkey FOREIGN KEY (playtest_thread_id) REFERENCES playtests.meta(thread_id);


--
-- Name: votes votes_user_id_fkey; Type: FK CONSTRAINT; Schema: playtests; Owner: -
--

ALTER TABLE ONLY playtests.votes
    ADD CONSTRAINT votes_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: effect_bindings effect_bindings_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.effect_bindings
    ADD CONSTRAINT effect_bindings_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id);


--
-- Name: effect_receipts effect_receipts_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.effect_receipts
    ADD CONSTRAINT effect_receipts_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id);


--
-- Name: job_actions job_actions_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_actions
    ADD CONSTRAINT job_actions_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id);


--
-- Name: job_alert_episodes job_alert_episodes_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_alert_episodes
    ADD CONSTRAINT job_alert_episodes_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.job_alerts(job_id);


--
-- Name: job_alerts job_alerts_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_alerts
    ADD CONSTRAINT job_alerts_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id);


--
-- Name: jobs jobs_depends_on_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_depends_on_fkey FOREIGN KEY (depends_on) REFERENCES public.jobs(id);


--
-- Name: payload_contracts payload_contracts_event_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payload_contracts
    ADD CONSTRAINT payload_contracts_event_name_fkey FOREIGN KEY (event_name) REFERENCES public.queue_event_types(event_name);


--
-- Name: queue_import_dispositions queue_import_dispositions_import_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_import_dispositions
    ADD CONSTRAINT queue_import_dispositions_import_id_fkey FOREIGN KEY (import_id) REFERENCES public.queue_imports(import_id);


--
-- Name: queue_import_dispositions queue_import_dispositions_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_import_dispositions
    ADD CONSTRAINT queue_import_dispositions_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id);


--
-- Name: completions completions_cycle_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.completions
    ADD CONSTRAINT completions_cycle_id_fkey FOREIGN KEY (cycle_id) REFERENCES tournaments.cycles(id);


--
-- Name: completions completions_map_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.completions
    ADD CONSTRAINT completions_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id);


--
-- Name: completions completions_user_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.completions
    ADD CONSTRAINT completions_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: cycles cycles_category_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.cycles
    ADD CONSTRAINT cycles_category_id_fkey FOREIGN KEY (category_id) REFERENCES tournaments.categories(id);


--
-- Name: cycles cycles_edition_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.cycles
    ADD CONSTRAINT cycles_edition_id_fkey FOREIGN KEY (edition_id) REFERENCES tournaments.editions(id);


--
-- Name: cycles cycles_map_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.cycles
    ADD CONSTRAINT cycles_map_id_fkey FOREIGN KEY (map_id) REFERENCES core.maps(id);


--
-- Name: cycles cycles_replaced_by_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.cycles
    ADD CONSTRAINT cycles_replaced_by_fkey FOREIGN KEY (replaced_by) REFERENCES tournaments.cycles(id);


--
-- Name: ocr_decisions ocr_decisions_tournament_completion_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.ocr_decisions
    ADD CONSTRAINT ocr_decisions_tournament_completion_id_fkey FOREIGN KEY (tournament_completion_id) REFERENCES tournaments.completions(id) ON DELETE CASCADE;


--
-- Name: pending_transitions pending_transitions_edition_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.pending_transitions
    ADD CONSTRAINT pending_transitions_edition_id_fkey FOREIGN KEY (edition_id) REFERENCES tournaments.editions(id);


--
-- Name: streaks streaks_user_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.streaks
    ADD CONSTRAINT streaks_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: verdicts verdicts_tournament_completion_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.verdicts
    ADD CONSTRAINT verdicts_tournament_completion_id_fkey FOREIGN KEY (tournament_completion_id) REFERENCES tournaments.completions(id);


--
-- Name: xp_grants xp_grants_cycle_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.xp_grants
    ADD CONSTRAINT xp_grants_cycle_id_fkey FOREIGN KEY (cycle_id) REFERENCES tournaments.cycles(id);


--
-- Name: xp_grants xp_grants_user_id_fkey; Type: FK CONSTRAINT; Schema: tournaments; Owner: -
--

ALTER TABLE ONLY tournaments.xp_grants
    ADD CONSTRAINT xp_grants_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: overwatch_usernames overwatch_usernames_user_id_fkey; Type: FK CONSTRAINT; Schema: users; Owner: -
--

ALTER TABLE ONLY users.overwatch_usernames
    ADD CONSTRAINT overwatch_usernames_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id) ON DELETE CASCADE;


--
-- Name: suspicious_flags suspicious_flags_completion_id_fkey; Type: FK CONSTRAINT; Schema: users; Owner: -
--

ALTER TABLE ONLY users.suspicious_flags
    ADD CONSTRAINT suspicious_flags_completion_id_fkey FOREIGN KEY (completion_id) REFERENCES core.completions(id);


--
-- Name: suspicious_flags suspicious_flags_user_id_fkey; Type: FK CONSTRAINT; Schema: users; Owner: -
--

ALTER TABLE ONLY users.suspicious_flags
    ADD CONSTRAINT suspicious_flags_user_id_fkey FOREIGN KEY (user_id) REFERENCES core.users(id);


--
-- Name: pgqueuer bot_owned_jobs; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY bot_owned_jobs ON public.pgqueuer FOR SELECT TO genjishimada_queue_worker USING ((entrypoint IN ( SELECT t.event_name
   FROM public.queue_event_types t
  WHERE (t.owner = 'bot'::text))));


--
-- Name: pgqueuer; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.pgqueuer ENABLE ROW LEVEL SECURITY;

--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA public TO genjishimada_queue_worker;


--
-- Name: FUNCTION completions_must_beat_personal_best(); Type: ACL; Schema: core; Owner: -
--

REVOKE ALL ON FUNCTION core.completions_must_beat_personal_best() FROM PUBLIC;


--
-- Name: FUNCTION difficulty_label(raw numeric); Type: ACL; Schema: core; Owner: -
--

REVOKE ALL ON FUNCTION core.difficulty_label(raw numeric) FROM PUBLIC;


--
-- Name: FUNCTION maps_keep_links_symmetric(); Type: ACL; Schema: core; Owner: -
--

REVOKE ALL ON FUNCTION core.maps_keep_links_symmetric() FROM PUBLIC;


--
-- Name: FUNCTION maps_set_difficulty(); Type: ACL; Schema: core; Owner: -
--

REVOKE ALL ON FUNCTION core.maps_set_difficulty() FROM PUBLIC;


--
-- Name: FUNCTION set_updated_at(); Type: ACL; Schema: core; Owner: -
--

REVOKE ALL ON FUNCTION core.set_updated_at() FROM PUBLIC;


--
-- Name: FUNCTION votes_require_verified_completion(); Type: ACL; Schema: playtests; Owner: -
--

REVOKE ALL ON FUNCTION playtests.votes_require_verified_completion() FROM PUBLIC;


--
-- Name: FUNCTION effect_action_check(p_job_id uuid, p_effect_key text, p_allowed_events text[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_action_check(p_job_id uuid, p_effect_key text, p_allowed_events text[]) FROM PUBLIC;


--
-- Name: FUNCTION effect_binding_begin(p_job_id uuid, p_effect_key text, p_destination text, p_fingerprint text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_binding_begin(p_job_id uuid, p_effect_key text, p_destination text, p_fingerprint text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION effect_binding_claim_check(p_job_id uuid, p_effect_key text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_binding_claim_check(p_job_id uuid, p_effect_key text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION effect_binding_complete(p_job_id uuid, p_effect_key text, p_destination text, p_channel_id bigint, p_message_id bigint, p_thread_id bigint); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_binding_complete(p_job_id uuid, p_effect_key text, p_destination text, p_channel_id bigint, p_message_id bigint, p_thread_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION effect_binding_intended_by(p_detail jsonb, p_manager uuid, p_claimed_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_binding_intended_by(p_detail jsonb, p_manager uuid, p_claimed_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION effect_binding_release(p_job_id uuid, p_effect_key text, p_destination text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_binding_release(p_job_id uuid, p_effect_key text, p_destination text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION effect_binding_settle(p_job_id uuid, p_effect_key text, p_destination text, p_state text, p_detail jsonb, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_binding_settle(p_job_id uuid, p_effect_key text, p_destination text, p_state text, p_detail jsonb, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION effect_receipt_begin(p_job_id uuid, p_effect_key text, p_fingerprint text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_receipt_begin(p_job_id uuid, p_effect_key text, p_fingerprint text, p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION effect_receipt_complete(p_job_id uuid, p_effect_key text, p_result jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_receipt_complete(p_job_id uuid, p_effect_key text, p_result jsonb) FROM PUBLIC;


--
-- Name: FUNCTION effect_receipt_require_completion(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.effect_receipt_require_completion() FROM PUBLIC;


--
-- Name: FUNCTION payload_fraction_suspect(p_body text, p_screen text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_fraction_suspect(p_body text, p_screen text) FROM PUBLIC;


--
-- Name: FUNCTION payload_max_bytes(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_max_bytes() FROM PUBLIC;


--
-- Name: FUNCTION text_is_blank(p_text text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.text_is_blank(p_text text) FROM PUBLIC;


--
-- Name: FUNCTION enqueue_fast_path_passes(p_event_key text, p_entity_key text, p_trace jsonb, p_payload jsonb, p_body text, p_fast_check jsonpath, p_fraction_screen text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.enqueue_fast_path_passes(p_event_key text, p_entity_key text, p_trace jsonb, p_payload jsonb, p_body text, p_fast_check jsonpath, p_fraction_screen text) FROM PUBLIC;


--
-- Name: FUNCTION enqueue_job(p_event_name text, p_payload jsonb, p_event_key text, p_entity_key text, p_depends_on uuid, p_schema_version integer, p_trace jsonb, OUT job_id uuid, OUT status text, OUT error_code text, OUT error_msg text, OUT created boolean); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.enqueue_job(p_event_name text, p_payload jsonb, p_event_key text, p_entity_key text, p_depends_on uuid, p_schema_version integer, p_trace jsonb, OUT job_id uuid, OUT status text, OUT error_code text, OUT error_msg text, OUT created boolean) FROM PUBLIC;


--
-- Name: FUNCTION enqueue_job(p_event_name text, p_payload jsonb, p_event_key text, p_entity_key text, p_depends_on uuid, p_schema_version integer, p_trace jsonb, p_job_id uuid, OUT job_id uuid, OUT status text, OUT error_code text, OUT error_msg text, OUT created boolean); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.enqueue_job(p_event_name text, p_payload jsonb, p_event_key text, p_entity_key text, p_depends_on uuid, p_schema_version integer, p_trace jsonb, p_job_id uuid, OUT job_id uuid, OUT status text, OUT error_code text, OUT error_msg text, OUT created boolean) FROM PUBLIC;


--
-- Name: FUNCTION enqueue_jobs(p_event_names text[], p_payloads jsonb[], p_event_keys text[], p_entity_keys text[], p_depends_on uuid[], p_schema_versions integer[], p_trace jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.enqueue_jobs(p_event_names text[], p_payloads jsonb[], p_event_keys text[], p_entity_keys text[], p_depends_on uuid[], p_schema_versions integer[], p_trace jsonb) FROM PUBLIC;


--
-- Name: FUNCTION fn_pgqueuer_changed(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.fn_pgqueuer_changed() FROM PUBLIC;


--
-- Name: FUNCTION job_alert_card_begin(p_job_id uuid, p_holder uuid, p_version integer, p_fingerprint text, p_guild_id bigint, p_channel_id bigint, p_lease interval, p_replaces timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_alert_card_begin(p_job_id uuid, p_holder uuid, p_version integer, p_fingerprint text, p_guild_id bigint, p_channel_id bigint, p_lease interval, p_replaces timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION job_alert_card_complete(p_job_id uuid, p_channel_id bigint, p_message_id bigint, p_version integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_alert_card_complete(p_job_id uuid, p_channel_id bigint, p_message_id bigint, p_version integer) FROM PUBLIC;


--
-- Name: FUNCTION job_alert_card_gone(p_job_id uuid, p_message_id bigint); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_alert_card_gone(p_job_id uuid, p_message_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION job_alert_card_rendered(p_job_id uuid, p_message_id bigint, p_version integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_alert_card_rendered(p_job_id uuid, p_message_id bigint, p_version integer) FROM PUBLIC;


--
-- Name: FUNCTION job_alert_reply_begin(p_job_id uuid, p_generation integer, p_holder uuid, p_fingerprint text, p_channel_id bigint, p_lease interval, p_replaces timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_alert_reply_begin(p_job_id uuid, p_generation integer, p_holder uuid, p_fingerprint text, p_channel_id bigint, p_lease interval, p_replaces timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION job_alert_reply_complete(p_job_id uuid, p_generation integer, p_channel_id bigint, p_message_id bigint); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_alert_reply_complete(p_job_id uuid, p_generation integer, p_channel_id bigint, p_message_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION job_alerts_reconcile(p_limit integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_alerts_reconcile(p_limit integer) FROM PUBLIC;


--
-- Name: FUNCTION job_details(p_job_id uuid); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_details(p_job_id uuid) FROM PUBLIC;


--
-- Name: FUNCTION job_list(p_state text, p_entrypoint text, p_limit integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_list(p_state text, p_entrypoint text, p_limit integer) FROM PUBLIC;


--
-- Name: FUNCTION job_list_finished(p_state text, p_entrypoint text, p_limit integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_list_finished(p_state text, p_entrypoint text, p_limit integer) FROM PUBLIC;


--
-- Name: FUNCTION job_lookup(p_ref text, p_limit integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_lookup(p_ref text, p_limit integer) FROM PUBLIC;


--
-- Name: FUNCTION job_public_status(p_job_id uuid); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_public_status(p_job_id uuid) FROM PUBLIC;


--
-- Name: FUNCTION job_terminal_summary(p_log_status text, p_traceback jsonb, OUT status text, OUT error_code text, OUT error_msg text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.job_terminal_summary(p_log_status text, p_traceback jsonb, OUT status text, OUT error_code text, OUT error_msg text) FROM PUBLIC;


--
-- Name: FUNCTION payload_current_version(p_event_name text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_current_version(p_event_name text) FROM PUBLIC;


--
-- Name: FUNCTION payload_fast_check(p_nodes public.payload_contract_node[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_fast_check(p_nodes public.payload_contract_node[]) FROM PUBLIC;


--
-- Name: FUNCTION payload_fast_predicate(p_nodes public.payload_contract_node[], p_at integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_fast_predicate(p_nodes public.payload_contract_node[], p_at integer) FROM PUBLIC;


--
-- Name: FUNCTION payload_float_overflow(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_float_overflow() FROM PUBLIC;


--
-- Name: FUNCTION payload_fraction_screen(p_nodes public.payload_contract_node[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_fraction_screen(p_nodes public.payload_contract_node[]) FROM PUBLIC;


--
-- Name: FUNCTION payload_is_datetime(p_text text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_is_datetime(p_text text) FROM PUBLIC;


--
-- Name: FUNCTION payload_nodes(p_nodes jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_nodes(p_nodes jsonb) FROM PUBLIC;


--
-- Name: FUNCTION payload_nodes_problem(p_nodes public.payload_contract_node[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_nodes_problem(p_nodes public.payload_contract_node[]) FROM PUBLIC;


--
-- Name: FUNCTION payload_plain_json_problem(p_payload jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_plain_json_problem(p_payload jsonb) FROM PUBLIC;


--
-- Name: FUNCTION payload_problem(p_event_name text, p_version integer, p_payload jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_problem(p_event_name text, p_version integer, p_payload jsonb) FROM PUBLIC;


--
-- Name: FUNCTION payload_walk_problem(p_event_name text, p_version integer, p_payload jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.payload_walk_problem(p_event_name text, p_version integer, p_payload jsonb) FROM PUBLIC;


--
-- Name: FUNCTION queue_begin(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_wait interval); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_begin(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_wait interval) FROM PUBLIC;


--
-- Name: TABLE pgqueuer; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.pgqueuer TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_claim(p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_claim(p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_claim(p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_complete_and_claim(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[], p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT written boolean[], OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_complete_and_claim(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[], p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT written boolean[], OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_complete_and_claim(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[], p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer, p_wait interval, OUT written boolean[], OUT jobs public.pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean, OUT queued boolean, OUT next_due interval) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_complete_many(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_complete_many(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_complete_many(p_ids bigint[], p_managers uuid[], p_claimed_ats timestamp with time zone[]) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_config(OUT stale_heartbeat interval, OUT max_reclaims integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_config(OUT stale_heartbeat interval, OUT max_reclaims integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_config(OUT stale_heartbeat interval, OUT max_reclaims integer) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_discard_held(p_job_id uuid, p_actor_id bigint, p_reason text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_discard_held(p_job_id uuid, p_actor_id bigint, p_reason text) FROM PUBLIC;


--
-- Name: FUNCTION queue_entrypoint_metrics(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_entrypoint_metrics() FROM PUBLIC;


--
-- Name: FUNCTION queue_envelope(p_job_id uuid, p_event_name text, p_event_key text, p_version integer, p_payload text, p_trace jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_envelope(p_job_id uuid, p_event_name text, p_event_key text, p_version integer, p_payload text, p_trace jsonb) FROM PUBLIC;


--
-- Name: FUNCTION queue_error_summary(p_error jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_error_summary(p_error jsonb) FROM PUBLIC;


--
-- Name: FUNCTION queue_fail(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delays interval[], p_error jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_fail(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delays interval[], p_error jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_fail(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delays interval[], p_error jsonb) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_heartbeat(p_ids bigint[], p_managers uuid[], p_claimed_at timestamp with time zone[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_heartbeat(p_ids bigint[], p_managers uuid[], p_claimed_at timestamp with time zone[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_heartbeat(p_ids bigint[], p_managers uuid[], p_claimed_at timestamp with time zone[]) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_hold(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_error jsonb, p_handler_failure boolean); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_hold(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_error jsonb, p_handler_failure boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_hold(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_error jsonb, p_handler_failure boolean) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_may_act_for(p_manager uuid); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_may_act_for(p_manager uuid) FROM PUBLIC;


--
-- Name: FUNCTION queue_metrics(p_alive_within interval); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_metrics(p_alive_within interval) FROM PUBLIC;


--
-- Name: FUNCTION queue_prune_logs(p_retention interval, p_batch integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_prune_logs(p_retention interval, p_batch integer) FROM PUBLIC;


--
-- Name: FUNCTION queue_release(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_reason text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_release(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_release(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_reason text) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_resume_waiters(p_queue_id bigint); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_resume_waiters(p_queue_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION queue_retention_run(p_every interval, p_retention interval, p_batch integer, p_max_batches integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_retention_run(p_every interval, p_retention interval, p_batch integer, p_max_batches integer) FROM PUBLIC;


--
-- Name: FUNCTION queue_retry(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delay interval, p_error jsonb, p_handler_failure boolean); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_retry(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delay interval, p_error jsonb, p_handler_failure boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_retry(p_id bigint, p_manager uuid, p_claimed_at timestamp with time zone, p_delay interval, p_error jsonb, p_handler_failure boolean) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_session_alive(p_pid integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_session_alive(p_pid integer) FROM PUBLIC;


--
-- Name: FUNCTION queue_session_is_worker(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_session_is_worker() FROM PUBLIC;


--
-- Name: FUNCTION queue_trace_filter(p_trace jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_trace_filter(p_trace jsonb) FROM PUBLIC;


--
-- Name: FUNCTION queue_wake(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_wake() FROM PUBLIC;


--
-- Name: FUNCTION queue_worker_beat(p_manager uuid, p_owner text, p_host text, p_pid integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_worker_beat(p_manager uuid, p_owner text, p_host text, p_pid integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_worker_beat(p_manager uuid, p_owner text, p_host text, p_pid integer) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_worker_budgets(p_owner text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_worker_budgets(p_owner text) FROM PUBLIC;


--
-- Name: FUNCTION queue_worker_health(p_owner text, p_host text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_worker_health(p_owner text, p_host text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_worker_health(p_owner text, p_host text) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_worker_retry_schedule(p_manager uuid, p_delays double precision[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_worker_retry_schedule(p_manager uuid, p_delays double precision[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_worker_retry_schedule(p_manager uuid, p_delays double precision[]) TO genjishimada_queue_worker;


--
-- Name: FUNCTION queue_worker_stopped(p_manager uuid); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.queue_worker_stopped(p_manager uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_worker_stopped(p_manager uuid) TO genjishimada_queue_worker;


--
-- Name: FUNCTION recovery_check_request(p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_context jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_check_request(p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_context jsonb) FROM PUBLIC;


--
-- Name: FUNCTION recovery_context(p_context jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_context(p_context jsonb) FROM PUBLIC;


--
-- Name: FUNCTION recovery_discard(p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_reason text, p_context jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_discard(p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_reason text, p_context jsonb) FROM PUBLIC;


--
-- Name: FUNCTION recovery_guard_held_row(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_guard_held_row() FROM PUBLIC;


--
-- Name: FUNCTION recovery_guard_identity(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_guard_identity() FROM PUBLIC;


--
-- Name: FUNCTION recovery_guard_truncate(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_guard_truncate() FROM PUBLIC;


--
-- Name: FUNCTION recovery_has_uncertain_send(p_job_id uuid); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_has_uncertain_send(p_job_id uuid) FROM PUBLIC;


--
-- Name: FUNCTION recovery_job_state(p_job public.jobs); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_job_state(p_job public.jobs) FROM PUBLIC;


--
-- Name: FUNCTION recovery_recorded_action(p_idempotency_key text, p_job_id uuid, p_action text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_recorded_action(p_idempotency_key text, p_job_id uuid, p_action text) FROM PUBLIC;


--
-- Name: FUNCTION recovery_resolve_effect(p_job_id uuid, p_effect_key text, p_destination text, p_decision text, p_channel_id bigint, p_message_id bigint, p_thread_id bigint, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_reason text, p_context jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_resolve_effect(p_job_id uuid, p_effect_key text, p_destination text, p_decision text, p_channel_id bigint, p_message_id bigint, p_thread_id bigint, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_reason text, p_context jsonb) FROM PUBLIC;


--
-- Name: FUNCTION recovery_retry(p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_context jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.recovery_retry(p_job_id uuid, p_expected_generation integer, p_idempotency_key text, p_actor_id bigint, p_context jsonb) FROM PUBLIC;


--
-- Name: FUNCTION completions_verified_is_terminal(); Type: ACL; Schema: tournaments; Owner: -
--

REVOKE ALL ON FUNCTION tournaments.completions_verified_is_terminal() FROM PUBLIC;


--
-- Name: COLUMN pgqueuer_log.traceback; Type: ACL; Schema: public; Owner: -
--

GRANT REFERENCES(traceback) ON TABLE public.pgqueuer_log TO genjishimada_queue_worker;


--
-- Name: COLUMN pgqueuer_statistics.id; Type: ACL; Schema: public; Owner: -
--

GRANT REFERENCES(id) ON TABLE public.pgqueuer_statistics TO genjishimada_queue_worker;


--
-- Name: TABLE queue_event_types; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.queue_event_types TO genjishimada_queue_worker;


--
-- Name: DEFAULT PRIVILEGES FOR FUNCTIONS; Type: DEFAULT ACL; Schema: -; Owner: -
--

ALTER DEFAULT PRIVILEGES FOR ROLE <owner> REVOKE ALL ON FUNCTIONS  FROM PUBLIC;


--
-- PostgreSQL database dump complete
--
