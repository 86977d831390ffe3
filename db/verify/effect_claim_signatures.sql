SELECT 1 / (count(*) = 0)::integer FROM unnest(ARRAY[
    'effect_receipt_begin(uuid, text, text, uuid, timestamptz)',
    'effect_binding_begin(uuid, text, text, text, uuid, timestamptz)',
    'effect_binding_settle(uuid, text, text, text, jsonb, uuid, timestamptz)',
    'effect_binding_release(uuid, text, text, uuid, timestamptz)',
    'effect_binding_claim_check(uuid, text, uuid, timestamptz)'
]) AS s WHERE to_regprocedure(s) IS NOT NULL;
