SELECT 'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb)'::regprocedure;
SELECT 'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb, uuid)'::regprocedure;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb, uuid)', 'EXECUTE'))::int;
