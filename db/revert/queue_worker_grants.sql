REVOKE EXECUTE ON FUNCTION
    queue_config(),
    queue_claim(uuid, text[], integer, integer, interval),
    queue_complete(bigint, uuid, timestamptz),
    queue_heartbeat(bigint[], uuid[], timestamptz[]),
    queue_release(bigint, uuid, timestamptz, text),
    queue_retry(bigint, uuid, timestamptz, interval, jsonb, boolean),
    queue_fail(bigint, uuid, timestamptz, interval[], jsonb),
    queue_hold(bigint, uuid, timestamptz, jsonb, boolean),
    queue_worker_beat(uuid, text, text, integer),
    queue_worker_stopped(uuid)
FROM genjishimada_queue_worker;
