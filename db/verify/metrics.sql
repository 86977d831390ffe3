SELECT 'queue_metrics(interval)'::regprocedure;
SELECT 'queue_entrypoint_metrics()'::regprocedure;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'queue_entrypoint_metrics()', 'EXECUTE'))::int;
SELECT 1/count(*) FROM pg_proc WHERE proname = 'queue_metrics' AND prosrc LIKE '%j.finished_at IS NULL%';
