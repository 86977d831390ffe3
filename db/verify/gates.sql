SELECT 'queue_begin(bigint, uuid, timestamptz, integer, interval)'::regprocedure;
