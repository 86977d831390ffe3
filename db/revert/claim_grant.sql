REVOKE EXECUTE ON FUNCTION
    queue_claim(uuid, text[], integer, integer, interval),
    queue_complete_and_claim(bigint[], uuid[], timestamptz[], uuid, text[], integer, integer,
                             interval)
FROM genjishimada_queue_worker;
