SELECT manager_id, owner, host, pid, started_at, beat_at FROM queue_workers WHERE false;
SELECT 'pgqueuer_one_running_per_entrypoint'::regclass;
