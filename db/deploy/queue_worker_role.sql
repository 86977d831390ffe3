-- The bot's queue-only login. No password here: deployment sets it (ALTER ROLE ... PASSWORD)
-- from QUEUE_DATABASE_PASSWORD. Grants are exactly what a PGQueuer 1.1.1 consumer needs; the
-- fenced state functions are granted by queue_worker_grants, once they exist. The role is
-- cluster-wide, so it is created only if missing: other databases may already use it.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'genjishimada_queue_worker') THEN
        CREATE ROLE genjishimada_queue_worker
            LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT;
    END IF;
END
$$;

-- Nothing may reach the worker through PUBLIC: no schema creation (older clusters granted it),
-- no execution of application functions.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
-- Global form: a per-schema default cannot take back what PUBLIC is granted globally. Every
-- function change comes after this one, so no queue function is ever executable by PUBLIC.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

GRANT USAGE ON SCHEMA public TO genjishimada_queue_worker;
-- PGQueuer's dequeue claims rows itself; every other state change goes through the fenced
-- functions, so the worker may only touch the claim columns and never delete.
GRANT SELECT, UPDATE (status, updated, heartbeat, queue_manager_id) ON pgqueuer
    TO genjishimada_queue_worker;
GRANT INSERT ON pgqueuer_log TO genjishimada_queue_worker;
-- PGQueuer's startup check only looks for the statistics table in information_schema.
GRANT SELECT (id) ON pgqueuer_statistics TO genjishimada_queue_worker;

-- The bot's login sees and claims only the events the bot owns, and writes only claim log
-- rows; API-owned work and terminal outcomes are out of its reach. The owner bypasses these.
-- The event registry (names and owners, no job data) is readable so the policies stay plain,
-- once-per-query subqueries.
GRANT SELECT ON queue_event_types TO genjishimada_queue_worker;
ALTER TABLE pgqueuer ENABLE ROW LEVEL SECURITY;
CREATE POLICY bot_owned_jobs ON pgqueuer TO genjishimada_queue_worker
    USING (entrypoint IN (SELECT t.event_name FROM queue_event_types t WHERE t.owner = 'bot'));
ALTER TABLE pgqueuer_log ENABLE ROW LEVEL SECURITY;
CREATE POLICY bot_claim_logs ON pgqueuer_log FOR INSERT TO genjishimada_queue_worker
    WITH CHECK (
        status = 'picked'
        AND entrypoint IN (SELECT t.event_name FROM queue_event_types t WHERE t.owner = 'bot')
    );
