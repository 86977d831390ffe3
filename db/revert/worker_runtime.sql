DROP INDEX pgqueuer_one_running_per_entrypoint;
DROP TABLE queue_workers;
