SELECT 'queue_config()'::regprocedure;
SELECT 'queue_worker_beat(uuid, text, text, integer)'::regprocedure;
SELECT 'queue_worker_stopped(uuid)'::regprocedure;
SELECT 'queue_session_alive(integer)'::regprocedure;
SELECT 'queue_session_is_worker()'::regprocedure;
SELECT 'queue_may_act_for(uuid)'::regprocedure;
SELECT 1/(count(*) = 1)::integer FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.proname = 'queue_may_act_for' AND l.lanname = 'plpgsql';
SELECT 1/(count(*) = 1)::integer FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.proname = 'queue_session_is_worker' AND l.lanname = 'sql' AND p.proconfig IS NULL;
SELECT 1/count(*) FROM pg_proc
WHERE proname = 'queue_worker_stopped' AND prosrc LIKE '%queue_release(%';
