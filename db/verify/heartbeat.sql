SELECT 'queue_heartbeat(bigint[], uuid[], timestamptz[])'::regprocedure;
