SELECT 'recovery_job_state(public.jobs)'::regprocedure;
SELECT 'recovery_has_uncertain_send(uuid)'::regprocedure;
SELECT 'recovery_check_request(integer, text, bigint, jsonb)'::regprocedure;
SELECT 'recovery_recorded_action(text, uuid, text)'::regprocedure;
SELECT 'recovery_context(jsonb)'::regprocedure;
SELECT 1 / count(*) FROM pg_proc
WHERE proname = 'recovery_check_request' AND prosrc LIKE '%text_is_blank(p_idempotency_key)%';
