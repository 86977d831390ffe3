SELECT 1 / has_function_privilege('genjishimada_queue_worker',
    'queue_claim(uuid, text[], integer, integer, interval)', 'EXECUTE')::int;
SELECT 1 / has_function_privilege('genjishimada_queue_worker',
    'queue_complete(bigint, uuid, timestamptz)', 'EXECUTE')::int;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'queue_begin(bigint, uuid, timestamptz, interval)', 'EXECUTE'))::int;
SELECT 1 / has_function_privilege('genjishimada_queue_worker',
    'queue_worker_stopped(uuid)', 'EXECUTE')::int;
-- Functions the worker was not granted stay closed to it, PUBLIC included.
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'enqueue_job(text, jsonb, text, text, uuid, integer, jsonb)', 'EXECUTE'))::int;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'queue_metrics(interval)', 'EXECUTE'))::int;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'queue_resume_waiters(bigint)', 'EXECUTE'))::int;
