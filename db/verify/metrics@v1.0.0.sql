SELECT 'queue_metrics(interval)'::regprocedure;
