DROP FUNCTION recovery_discard(uuid, integer, text, bigint, text, jsonb);
