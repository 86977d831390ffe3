SELECT 'effect_binding_intended_by(jsonb, uuid, timestamptz)'::regprocedure;
SELECT 'effect_binding_claim_check(uuid, text, bigint, uuid, timestamptz)'::regprocedure;
SELECT 'effect_binding_begin(uuid, text, text, text, bigint, uuid, timestamptz)'::regprocedure;
SELECT 'effect_binding_complete(uuid, text, text, bigint, bigint, bigint)'::regprocedure;
SELECT 'effect_binding_settle(uuid, text, text, text, jsonb, bigint, uuid, timestamptz)'::regprocedure;
SELECT 'effect_binding_release(uuid, text, text, bigint, uuid, timestamptz)'::regprocedure;
