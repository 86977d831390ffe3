SELECT 'queue_begin(bigint, uuid, timestamptz, interval)'::regprocedure;
