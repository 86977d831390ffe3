-- The role is cluster-wide and may serve other databases; only this database's grants go.
DROP POLICY bot_owned_jobs ON pgqueuer;
ALTER TABLE pgqueuer DISABLE ROW LEVEL SECURITY;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM genjishimada_queue_worker;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM genjishimada_queue_worker;
REVOKE ALL ON SCHEMA public FROM genjishimada_queue_worker;
ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO PUBLIC;
GRANT CREATE ON SCHEMA public TO PUBLIC;
