DROP FUNCTION queue_metrics(interval);
DROP FUNCTION queue_worker_stopped(uuid);
DROP FUNCTION queue_worker_beat(uuid, text, text, integer);
