SELECT 'job_public_status(uuid)'::regprocedure;
