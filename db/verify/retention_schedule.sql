SELECT 'queue_retention_run(interval, interval, integer, integer)'::regprocedure;
