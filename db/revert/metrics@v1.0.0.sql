DROP FUNCTION queue_metrics(interval);
