ALTER TABLE queue_workers DROP COLUMN retry_delays;
