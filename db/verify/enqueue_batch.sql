SELECT 'enqueue_jobs(text[], jsonb[], text[], text[], uuid[], integer[], jsonb)'::regprocedure;
SELECT 1 / count(*) FROM pg_proc
WHERE proname = 'enqueue_jobs' AND prosrc LIKE '%text_is_blank(i.event_key)%';
