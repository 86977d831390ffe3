SELECT id, priority, queue_manager_id, created, updated, heartbeat, execute_after, status,
       entrypoint, dedupe_key, payload, headers, attempts
FROM pgqueuer WHERE false;
SELECT id, created, job_id, status, priority, entrypoint, traceback, aggregated FROM pgqueuer_log WHERE false;
SELECT id, created, count, priority, status, entrypoint FROM pgqueuer_statistics WHERE false;
SELECT id, expression, entrypoint, next_run FROM pgqueuer_schedules WHERE false;
SELECT 1 / count(*) FROM pg_trigger WHERE tgname = 'tg_pgqueuer_changed';
