SELECT 'queue_retry(bigint, uuid, timestamptz, interval, jsonb, boolean)'::regprocedure;
SELECT 'queue_fail(bigint, uuid, timestamptz, interval[], jsonb)'::regprocedure;
