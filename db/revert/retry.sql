DROP FUNCTION queue_fail(bigint, uuid, timestamptz, interval[], jsonb);
DROP FUNCTION queue_retry(bigint, uuid, timestamptz, interval, jsonb, boolean);
