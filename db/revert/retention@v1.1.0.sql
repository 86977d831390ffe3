DROP FUNCTION queue_prune_logs(interval, integer);
