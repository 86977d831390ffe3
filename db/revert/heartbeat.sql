DROP FUNCTION queue_heartbeat(bigint[], uuid[], timestamptz[]);
