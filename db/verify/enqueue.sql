SELECT 'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb)'::regprocedure;
SELECT 'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb, uuid)'::regprocedure;
SELECT 'queue_envelope(uuid, text, text, integer, text, jsonb)'::regprocedure;
SELECT 'enqueue_fast_path_passes(text, text, jsonb, jsonb, text, jsonpath, text)'::regprocedure;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb, uuid)', 'EXECUTE'))::int;
SELECT 1 / count(*) FROM pg_proc
WHERE proname = 'enqueue_job' AND prosrc LIKE '%text_is_blank(p_event_key)%';
