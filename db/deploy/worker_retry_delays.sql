-- Each worker's retry schedule, in seconds after each handler failure (queue_worker_retry_schedule
-- records it after registering). NULL: a worker that has not recorded one (an older release).
ALTER TABLE queue_workers ADD COLUMN retry_delays double precision[];
