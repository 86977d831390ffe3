DROP FUNCTION recovery_retry(uuid, integer, text, bigint, jsonb);
