-- The worker claims through queue_claim, which claim_result dropped and the claim rework
-- created again with its new result.
GRANT EXECUTE ON FUNCTION
    queue_claim(uuid, text[], integer, integer, interval),
    queue_complete_and_claim(bigint[], uuid[], timestamptz[], uuid, text[], integer, integer,
                             interval)
TO genjishimada_queue_worker;
