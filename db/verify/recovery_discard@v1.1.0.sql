SELECT 'recovery_discard(uuid, integer, text, bigint, text, jsonb)'::regprocedure;
