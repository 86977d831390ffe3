DROP FUNCTION queue_hold(bigint, uuid, timestamptz, jsonb, boolean);
