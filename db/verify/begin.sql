SELECT 'queue_begin(bigint, uuid, timestamptz, interval)'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE proname = 'queue_begin' AND prosrc LIKE '%e.finished_at IS NULL%';
SELECT 1/count(*) FROM pg_proc
WHERE proname = 'queue_begin' AND prosrc LIKE '%max(q.id) FILTER (WHERE q.status = ''queued'')%';
SELECT 1/count(*) FROM pg_proc
WHERE proname = 'queue_begin' AND prosrc LIKE '%AS claims_ever%';
