DROP FUNCTION queue_resume_waiters(bigint);
DROP FUNCTION queue_complete(bigint, uuid, timestamptz);
