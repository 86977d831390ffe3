-- The claim's result changed in this rework: claim_result, before it, dropped the function.
DROP FUNCTION queue_complete_and_claim(
    bigint[], uuid[], timestamptz[], uuid, text[], integer, integer, interval);
DROP FUNCTION queue_claim(uuid, text[], integer, integer, interval);
