REVOKE EXECUTE ON FUNCTION queue_claim(uuid, text[], integer, integer, interval)
    FROM genjishimada_queue_worker;
