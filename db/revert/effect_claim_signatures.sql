-- The effect functions as they were before a claim had to name its queue job: the deploy
-- dropped these signatures so the reworks of receipts and bindings could replace them.

CREATE OR REPLACE FUNCTION effect_receipt_begin(
    p_job_id uuid, p_effect_key text, p_fingerprint text, p_manager uuid, p_claimed_at timestamptz
) RETURNS TABLE (fresh boolean, result jsonb)
LANGUAGE plpgsql
SET search_path = public, pg_temp
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
        WHERE j.id = p_job_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
          AND q.status = 'picked'
        FOR KEY SHARE OF q;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'job % is not claimed by % at %; effect % cannot start',
                p_job_id, p_manager, p_claimed_at, quote_literal(p_effect_key)
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

CREATE OR REPLACE FUNCTION effect_binding_claim_check(
    p_job_id uuid, p_effect_key text, p_manager uuid, p_claimed_at timestamptz
) RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
    -- KEY SHARE holds the claim for this short transaction, as effect_receipt_begin does.
    PERFORM 1
    FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id
    WHERE j.id = p_job_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    FOR KEY SHARE OF q;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % is not claimed by % at %; effect % cannot start',
            p_job_id, p_manager, p_claimed_at, quote_literal(p_effect_key) USING ERRCODE = 'GJ409';
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION effect_binding_begin(
    p_job_id uuid, p_effect_key text, p_destination text, p_fingerprint text,
    p_manager uuid, p_claimed_at timestamptz
) RETURNS TABLE (fresh boolean, binding effect_bindings)
LANGUAGE plpgsql
SET search_path = public, pg_temp
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
    PERFORM effect_binding_claim_check(p_job_id, p_effect_key, p_manager, p_claimed_at);
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

CREATE OR REPLACE FUNCTION effect_binding_settle(
    p_job_id uuid, p_effect_key text, p_destination text, p_state text, p_detail jsonb,
    p_manager uuid, p_claimed_at timestamptz
) RETURNS effect_bindings
LANGUAGE plpgsql
SET search_path = public, pg_temp
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
        PERFORM effect_binding_claim_check(p_job_id, p_effect_key, p_manager, p_claimed_at);
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

CREATE OR REPLACE FUNCTION effect_binding_release(
    p_job_id uuid, p_effect_key text, p_destination text, p_manager uuid, p_claimed_at timestamptz
) RETURNS boolean
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
    PERFORM effect_binding_claim_check(p_job_id, p_effect_key, p_manager, p_claimed_at);
    DELETE FROM effect_bindings b
    WHERE b.job_id = p_job_id AND b.effect_key = p_effect_key AND b.destination = p_destination
      AND b.state = 'intended'
      AND effect_binding_intended_by(b.detail, p_manager, p_claimed_at);
    RETURN FOUND;
END
$$;
