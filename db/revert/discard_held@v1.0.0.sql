DROP FUNCTION queue_discard_held(uuid, bigint, text);
