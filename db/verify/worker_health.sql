SELECT 'queue_worker_health(text, text)'::regprocedure;
