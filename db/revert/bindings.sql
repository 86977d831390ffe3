-- The previous binding functions, whose claim named no queue job, come back with the revert of
-- effect_claim_signatures; the other functions of sql/bindings.sql did not change.
DROP FUNCTION effect_binding_release(uuid, text, text, bigint, uuid, timestamptz);
DROP FUNCTION effect_binding_settle(uuid, text, text, text, jsonb, bigint, uuid, timestamptz);
DROP FUNCTION effect_binding_begin(uuid, text, text, text, bigint, uuid, timestamptz);
DROP FUNCTION effect_binding_claim_check(uuid, text, bigint, uuid, timestamptz);
