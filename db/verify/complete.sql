SELECT 'queue_complete(bigint, uuid, timestamptz)'::regprocedure;
SELECT 'queue_complete_many(bigint[], uuid[], timestamptz[])'::regprocedure;
SELECT 'queue_resume_waiters(bigint)'::regprocedure;
SELECT 1/count(*) FROM pg_proc
WHERE proname = 'queue_complete_many' AND prosrc LIKE '%synchronous_commit%';
SELECT 1/count(*) FROM pg_proc
WHERE proname = 'queue_complete' AND prosrc LIKE '%queue_complete_many%';
SELECT 1/count(*) FROM pg_proc
WHERE proname = 'queue_resume_waiters' AND prosrc LIKE '%retry_generation + 1%';
