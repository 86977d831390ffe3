SELECT 'queue_complete(bigint, uuid, timestamptz)'::regprocedure;
SELECT 'queue_resume_waiters(bigint)'::regprocedure;
SELECT 1/count(*) FROM pg_proc
WHERE proname = 'queue_complete' AND prosrc LIKE '%SET finished_at = now()%';
