SELECT 'queue_complete(bigint, uuid, timestamptz)'::regprocedure;
SELECT 'queue_resume_waiters(bigint)'::regprocedure;
