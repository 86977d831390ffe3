-- No queue_claim of these arguments returns a set any more.
SELECT 1 / (count(*) = 0)::integer FROM pg_proc
WHERE oid = to_regprocedure('queue_claim(uuid, text[], integer, integer, interval)') AND proretset;
