SELECT 'queue_claim(uuid, text[], integer, integer, interval)'::regprocedure;
-- A claim also says what it left.
SELECT 1 / count(*) FROM pg_proc
WHERE oid = 'queue_claim(uuid, text[], integer, integer, interval)'::regprocedure
  AND 'more_ready' = ANY (proargnames);
SELECT 'queue_complete_and_claim(bigint[], uuid[], timestamptz[], uuid, text[], integer, integer, interval)'::regprocedure;
