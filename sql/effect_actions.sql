-- Which jobs may ask for an effect: an endpoint that performs effects for queue handlers names
-- the events whose handlers may request it, and checks the job before it reads or begins a
-- receipt or a binding, in the same transaction:
--   SELECT effect_action_check(job, effect_key, ARRAY['api.xp.grant', ...]);
-- Returns the job's event name. Errors:
--   GJ003 the effect key or the list of allowed events is missing
--   GJ404 no job has this UUID
--   GJ007 the job's event may not request this effect

CREATE OR REPLACE FUNCTION effect_action_check(
    p_job_id uuid, p_effect_key text, p_allowed_events text[]
) RETURNS text
LANGUAGE plpgsql
SET search_path = public, pg_temp
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
