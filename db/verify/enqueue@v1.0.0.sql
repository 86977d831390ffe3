SELECT 'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb)'::regprocedure;
