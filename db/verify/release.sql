SELECT 'queue_release(bigint, uuid, timestamptz, text)'::regprocedure;
