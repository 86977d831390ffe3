SELECT 'recovery_retry(uuid, integer, text, bigint, jsonb)'::regprocedure;
