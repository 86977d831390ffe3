SELECT 1/count(*) FROM queue_maintenance WHERE task = 'prune_logs';
