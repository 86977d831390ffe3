SELECT 'queue_hold(bigint, uuid, timestamptz, jsonb, boolean)'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE proname = 'queue_hold' AND prosrc LIKE '%queue_wake()%';
