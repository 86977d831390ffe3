DROP FUNCTION effect_action_check(uuid, text, text[]);
