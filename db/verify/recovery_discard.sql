SELECT 'recovery_discard(uuid, integer, text, bigint, text, jsonb)'::regprocedure;
SELECT 1 / count(*) FROM pg_proc
WHERE proname = 'recovery_discard' AND prosrc LIKE '%text_is_blank(p_reason)%';
