SELECT manager_id, owner, host, pid, started_at, beat_at FROM queue_workers WHERE false;
SELECT 'queue_begin(bigint, uuid, timestamptz, integer, interval)'::regprocedure;
SELECT 'queue_resume_waiters(bigint)'::regprocedure;
SELECT 'queue_metrics(interval)'::regprocedure;
SELECT 1 / has_function_privilege('genjishimada_queue_worker',
    'queue_begin(bigint, uuid, timestamptz, integer, interval)', 'EXECUTE')::int;
SELECT 'pgqueuer_one_running_per_entrypoint'::regclass;
