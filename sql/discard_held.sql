-- Replaced by recovery_discard (sql/recovery_discard.sql), which also checks the generation
-- the operator saw and takes an idempotency key. The old name only refuses, pointing there, so
-- no second discard path remains.
CREATE OR REPLACE FUNCTION queue_discard_held(p_job_id uuid, p_actor_id bigint, p_reason text)
RETURNS TABLE (outcome text, action_id bigint, resumed integer)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION 'queue_discard_held was replaced by recovery_discard' USING ERRCODE = 'GJ009',
        HINT = format('genji-jobs discard %s --reason ... (SELECT * FROM recovery_discard(...) '
                      'in psql); see docs/queue-operations.md', p_job_id);
END
$$;
