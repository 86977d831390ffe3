-- Effect receipts, used inside the caller's business transaction:
--   SELECT * FROM effect_receipt_begin(job, effect_key, fingerprint, queue_job_id, manager,
--                                      claimed_at);
--   -- fresh: perform the mutation, then
--   SELECT effect_receipt_complete(job, effect_key, result_jsonb);
--   COMMIT;
-- A concurrent duplicate blocks on the first caller's receipt row and then reads its result;
-- a rollback leaves no receipt. Errors:
--   GJ003 the effect key or the request fingerprint is missing
--   GJ006 the effect key was already used with a different request fingerprint
--   GJ409 the caller does not hold the job's active claim, so it cannot start a new effect
-- The claim is (queue job id, manager, claimed at) and must be on this job: a worker that claims
-- a batch holds several claims with the same manager and claim time, told apart only by the
-- queue job id, and one execution's claim authorises no other job's effects.

CREATE OR REPLACE FUNCTION effect_receipt_begin(
    p_job_id uuid, p_effect_key text, p_fingerprint text,
    p_queue_job_id bigint, p_manager uuid, p_claimed_at timestamptz
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

CREATE OR REPLACE FUNCTION effect_receipt_complete(p_job_id uuid, p_effect_key text, p_result jsonb)
RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
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

-- A receipt must be completed in the transaction that began it: no "claimed" row that could
-- suppress unfinished work is ever committed.
CREATE OR REPLACE FUNCTION effect_receipt_require_completion() RETURNS trigger
LANGUAGE plpgsql
SET search_path = public, pg_temp
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

DROP TRIGGER IF EXISTS effect_receipts_completed_at_commit ON effect_receipts;
CREATE CONSTRAINT TRIGGER effect_receipts_completed_at_commit
    AFTER INSERT ON effect_receipts
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION effect_receipt_require_completion();
