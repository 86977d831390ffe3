ALTER TABLE job_actions DROP COLUMN xact_id;
