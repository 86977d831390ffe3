DROP FUNCTION queue_session_alive(integer);
DROP FUNCTION queue_may_act_for(uuid);
DROP FUNCTION queue_session_is_worker();
DROP FUNCTION queue_worker_stopped(uuid);
DROP FUNCTION queue_worker_beat(uuid, text, text, integer);
DROP FUNCTION queue_config();
