DROP FUNCTION job_terminal_summary(text, jsonb);
DROP FUNCTION queue_error_summary(jsonb);
