-- The effect functions took a claim as (manager, claimed at) only, so with a batch of claims of
-- one manager and claim time, one execution's claim was accepted for another job's effects.
-- Their new signatures add the claim's queue job id (reworks receipts and bindings, next);
-- CREATE OR REPLACE would leave these old ones beside them, callable.
DROP FUNCTION effect_receipt_begin(uuid, text, text, uuid, timestamptz);
DROP FUNCTION effect_binding_begin(uuid, text, text, text, uuid, timestamptz);
DROP FUNCTION effect_binding_settle(uuid, text, text, text, jsonb, uuid, timestamptz);
DROP FUNCTION effect_binding_release(uuid, text, text, uuid, timestamptz);
DROP FUNCTION effect_binding_claim_check(uuid, text, uuid, timestamptz);
