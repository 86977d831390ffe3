DROP FUNCTION queue_release(bigint, uuid, timestamptz, text);
DROP FUNCTION queue_heartbeat(bigint[], uuid[], timestamptz[]);
DROP FUNCTION queue_resume_waiters(bigint);
DROP FUNCTION queue_complete(bigint, uuid, timestamptz);
