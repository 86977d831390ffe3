DROP FUNCTION recovery_context(jsonb);
DROP FUNCTION recovery_recorded_action(text, uuid, text);
DROP FUNCTION recovery_check_request(integer, text, bigint, jsonb);
DROP FUNCTION recovery_has_uncertain_send(uuid);
DROP FUNCTION recovery_job_state(public.jobs);
