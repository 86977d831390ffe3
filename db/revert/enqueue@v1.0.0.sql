DROP FUNCTION enqueue_job(text, jsonb, text, text, uuid, integer, jsonb);
