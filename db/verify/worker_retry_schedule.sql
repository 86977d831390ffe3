SELECT 'queue_worker_retry_schedule(uuid, double precision[])'::regprocedure;
SELECT 'queue_worker_budgets(text)'::regprocedure;
SELECT 1/has_function_privilege('genjishimada_queue_worker',
    'queue_worker_retry_schedule(uuid, double precision[])', 'EXECUTE')::int;
