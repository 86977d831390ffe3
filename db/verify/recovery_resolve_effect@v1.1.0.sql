SELECT 'recovery_resolve_effect(uuid, text, text, text, bigint, bigint, bigint, integer, text, bigint, text, jsonb)'::regprocedure;
