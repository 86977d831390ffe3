DROP FUNCTION job_public_status(uuid);
