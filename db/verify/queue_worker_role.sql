SELECT 1 / count(*) FROM pg_roles
WHERE rolname = 'genjishimada_queue_worker'
  AND NOT rolsuper AND NOT rolcreaterole AND NOT rolcreatedb;
SELECT 1 / (NOT has_table_privilege('genjishimada_queue_worker', 'public.jobs', 'SELECT'))::int;
SELECT 1 / (NOT has_table_privilege('genjishimada_queue_worker', 'pgqueuer', 'UPDATE'))::int;
SELECT 1 / (NOT has_table_privilege('genjishimada_queue_worker', 'pgqueuer', 'DELETE'))::int;
SELECT 1 / (NOT has_table_privilege('genjishimada_queue_worker', 'pgqueuer_log', 'INSERT'))::int;
SELECT 1 / count(*) FROM pg_policies WHERE tablename = 'pgqueuer' AND policyname = 'bot_owned_jobs';
