SELECT 'enqueue_jobs(text[], jsonb[], text[], text[], uuid[], integer[], jsonb)'::regprocedure;
