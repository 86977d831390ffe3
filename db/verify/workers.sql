SELECT 'queue_config()'::regprocedure;
SELECT 'queue_worker_beat(uuid, text, text, integer)'::regprocedure;
SELECT 'queue_worker_stopped(uuid)'::regprocedure;
SELECT 'queue_session_alive(integer)'::regprocedure;
SELECT 'queue_session_is_worker()'::regprocedure;
SELECT 'queue_may_act_for(uuid)'::regprocedure;
SELECT 1/(count(*) = 2)::integer FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.proname IN ('queue_may_act_for', 'queue_session_is_worker') AND l.lanname = 'plpgsql';
