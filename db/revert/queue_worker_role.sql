-- The role itself stays. Roles are cluster-wide: other databases in the cluster (other
-- environments, clones of this one) may log in with it or hold grants to it, and its password is
-- set outside the plan. This revert removes everything this database gave it, so the role is
-- left with no access here; drop it by hand once no database uses it.
DROP POLICY bot_owned_jobs ON pgqueuer;
ALTER TABLE pgqueuer DISABLE ROW LEVEL SECURITY;
REVOKE SELECT ON queue_event_types FROM genjishimada_queue_worker;
REVOKE REFERENCES (id) ON pgqueuer_statistics FROM genjishimada_queue_worker;
REVOKE REFERENCES (traceback) ON pgqueuer_log FROM genjishimada_queue_worker;
REVOKE SELECT ON pgqueuer FROM genjishimada_queue_worker;
REVOKE USAGE ON SCHEMA public FROM genjishimada_queue_worker;
ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO PUBLIC;
-- Table and sequence grants to PUBLIC are not handed back either: a fresh database has none,
-- and a legacy database's were a hole the upgrade closed.
-- CREATE on schema public is not handed back to PUBLIC: since PostgreSQL 15 PUBLIC never has it
-- on a new database, so the deploy's revoke changed nothing, and on an older schema re-granting
-- it would reopen what the hardening closed.
