DROP FUNCTION effect_binding_release(uuid, text, text, uuid, timestamptz);
DROP FUNCTION effect_binding_settle(uuid, text, text, text, jsonb, uuid, timestamptz);
DROP FUNCTION effect_binding_complete(uuid, text, text, bigint, bigint, bigint);
DROP FUNCTION effect_binding_begin(uuid, text, text, text, uuid, timestamptz);
DROP FUNCTION effect_binding_claim_check(uuid, text, uuid, timestamptz);
DROP FUNCTION effect_binding_intended_by(jsonb, uuid, timestamptz);
