SELECT 'queue_error_summary(jsonb)'::regprocedure;
SELECT 'job_terminal_summary(text, jsonb)'::regprocedure;
