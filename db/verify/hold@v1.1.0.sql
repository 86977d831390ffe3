SELECT 'queue_hold(bigint, uuid, timestamptz, jsonb, boolean)'::regprocedure;
