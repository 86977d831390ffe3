DROP FUNCTION queue_begin(bigint, uuid, timestamptz, interval);
