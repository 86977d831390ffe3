SELECT 'queue_complete(bigint, uuid, timestamptz)'::regprocedure;
SELECT 'queue_resume_waiters(bigint)'::regprocedure;
SELECT 'queue_heartbeat(bigint[], uuid[], timestamptz[])'::regprocedure;
SELECT 'queue_release(bigint, uuid, timestamptz, text)'::regprocedure;
