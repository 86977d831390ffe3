DROP FUNCTION queue_worker_budgets(text);
DROP FUNCTION queue_worker_retry_schedule(uuid, double precision[]);
