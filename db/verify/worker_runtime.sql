SELECT manager_id, owner, host, pid, backend_pid, started_at, beat_at FROM queue_workers WHERE false;
SELECT 1 / count(*) FROM queue_settings;
SELECT 'pgqueuer_one_running_per_entrypoint'::regclass;
