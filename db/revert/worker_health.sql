DROP FUNCTION queue_worker_health(text, text);
