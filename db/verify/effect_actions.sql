SELECT 'effect_action_check(uuid, text, text[])'::regprocedure;
