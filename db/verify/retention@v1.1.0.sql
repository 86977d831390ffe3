SELECT 'queue_prune_logs(interval, integer)'::regprocedure;
