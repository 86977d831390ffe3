SELECT 'queue_config()'::regprocedure;
SELECT 'queue_worker_beat(uuid, text, text, integer)'::regprocedure;
SELECT 'queue_worker_stopped(uuid)'::regprocedure;
SELECT 'queue_session_alive(integer)'::regprocedure;
SELECT 'queue_session_is_worker()'::regprocedure;
SELECT 'queue_may_act_for(uuid)'::regprocedure;
