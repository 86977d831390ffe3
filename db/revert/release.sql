DROP FUNCTION queue_release(bigint, uuid, timestamptz, text);
