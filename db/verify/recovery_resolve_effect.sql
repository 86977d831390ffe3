SELECT 'recovery_resolve_effect(uuid, text, text, text, bigint, bigint, bigint, integer, text, bigint, text, jsonb)'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE proname = 'recovery_resolve_effect' AND prosrc LIKE '%names channel%';
