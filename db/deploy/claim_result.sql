-- queue_claim returned a set of (job, retry_generation) rows. The claim rework, next, returns
-- one row that also says what the claim left, and a function's result type cannot be
-- replaced, so this version is dropped first; claim_grant grants the new one.
DROP FUNCTION queue_claim(uuid, text[], integer, integer, interval);
