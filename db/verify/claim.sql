SELECT 'queue_claim(uuid, text[], integer, integer, interval)'::regprocedure;
-- A claim also says what it left, and the worker may call it.
SELECT 1 / count(*) FROM pg_proc
WHERE oid = 'queue_claim(uuid, text[], integer, integer, interval)'::regprocedure
  AND 'more_ready' = ANY (proargnames)
  AND has_function_privilege('genjishimada_queue_worker', oid, 'EXECUTE');
