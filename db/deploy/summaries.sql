-- The one place that shapes error summaries: what queue logs store for a failure, and what
-- the public status shows for a finished job (read from its terminal log row, or from the
-- summary written onto public.jobs when the logs are pruned).

-- A failure record as stored: {"exception_type": <= 100 chars, "exception_message": <= 300}.
-- Callers redact secrets before the record reaches the database; this only bounds its size.
CREATE OR REPLACE FUNCTION queue_error_summary(p_error jsonb) RETURNS jsonb
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
    SELECT CASE WHEN p_error IS NULL OR jsonb_typeof(p_error) <> 'object' THEN NULL
           ELSE jsonb_build_object(
               'exception_type', left(coalesce(p_error ->> 'exception_type', 'Error'), 100),
               'exception_message', left(coalesce(p_error ->> 'exception_message', ''), 300))
           END;
$$;

-- Public outcome of a terminal log row ('successful', 'exception', 'canceled', 'deleted').
CREATE OR REPLACE FUNCTION job_terminal_summary(
    p_log_status text, p_traceback jsonb,
    OUT status text, OUT error_code text, OUT error_msg text
)
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
    SELECT CASE WHEN p_log_status = 'successful' THEN 'succeeded' ELSE 'failed' END,
           CASE WHEN p_log_status = 'successful' THEN NULL
                ELSE left(coalesce(p_traceback ->> 'exception_type', p_log_status), 100) END,
           CASE WHEN p_log_status = 'successful' THEN NULL
                ELSE left(coalesce(p_traceback ->> 'exception_message', 'Job was discarded.'), 300)
           END;
$$;
