-- Discord effect bindings: one row per (job, effect, destination), written by the API for the
-- bot. A send commits its intent before it happens and its ids after; a replay reads the row:
--   completed             reuse the recorded ids and go on
--   intended / uncertain  the send may have happened: reconcile it, or hold the job
--   skipped / failed      the destination is settled: do not send to it again
-- effect_binding_begin   records the intent, or returns the existing row
-- effect_binding_complete records the ids a send returned (intended or uncertain -> completed)
-- effect_binding_settle   records skipped (nothing was begun), failed (refused: never sent) or
--                         uncertain (an intent whose outcome is unknown)
-- effect_binding_release  forgets an intent whose send surely did not happen
-- Only the execution that recorded an intent (its claim is kept in detail.intended_by) may
-- declare it not sent: release it or settle it as failed. Any later execution must reconcile.
-- Beginning, releasing and settling as skipped or failed start new decisions, so they need the
-- job's active claim (GJ409). Completing and marking uncertain record evidence and need none.
-- A claim is (queue job id, manager, claimed at) and must be on the binding's job: the claims of
-- one batch share their manager and claim time, and one authorises no other job's effects.
-- Errors: GJ003 bad arguments, GJ404 unknown job, GJ006 ids that contradict the recorded ones, or
-- a transition from the recorded state that the rules above refuse, GJ409 not the active claim.

-- Whether an intent was recorded under this claim (detail.intended_by, written at begin).
CREATE OR REPLACE FUNCTION effect_binding_intended_by(
    p_detail jsonb, p_manager uuid, p_claimed_at timestamptz
) RETURNS boolean
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    SELECT coalesce((p_detail #>> '{intended_by,manager}')::uuid = p_manager
        AND (p_detail #>> '{intended_by,claimed_at}')::timestamptz = p_claimed_at, false)
$$;

CREATE OR REPLACE FUNCTION effect_binding_claim_check(
    p_job_id uuid, p_effect_key text, p_queue_job_id bigint, p_manager uuid,
    p_claimed_at timestamptz
) RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
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

CREATE OR REPLACE FUNCTION effect_binding_begin(
    p_job_id uuid, p_effect_key text, p_destination text, p_fingerprint text,
    p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamptz
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

CREATE OR REPLACE FUNCTION effect_binding_complete(
    p_job_id uuid, p_effect_key text, p_destination text,
    p_channel_id bigint, p_message_id bigint, p_thread_id bigint
) RETURNS effect_bindings
LANGUAGE plpgsql
SET search_path = public, pg_temp
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

CREATE OR REPLACE FUNCTION effect_binding_settle(
    p_job_id uuid, p_effect_key text, p_destination text, p_state text, p_detail jsonb,
    p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamptz
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

CREATE OR REPLACE FUNCTION effect_binding_release(
    p_job_id uuid, p_effect_key text, p_destination text,
    p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamptz
) RETURNS boolean
LANGUAGE plpgsql
SET search_path = public, pg_temp
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
