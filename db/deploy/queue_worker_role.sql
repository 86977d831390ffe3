-- The bot's queue-only login. No password here: deployment sets it (ALTER ROLE ... PASSWORD)
-- from QUEUE_DATABASE_PASSWORD. The role is cluster-wide, so it is created only if missing:
-- other databases may already use it.
--
-- The worker changes queue state only through the SECURITY DEFINER transition functions
-- (granted by queue_worker_grants once they exist), each of which accepts only a legal move of
-- the job state machine for a claim the caller holds. It has no INSERT, UPDATE or DELETE on
-- any table, so it cannot set a status, write or forge a log row, or touch the settings.
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
-- Nor table or sequence access a legacy database may have granted to every role.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC;
-- Global form: a per-schema default cannot take back what PUBLIC is granted globally. Every
-- function change comes after this one, so no queue function is ever executable by PUBLIC.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

GRANT USAGE ON SCHEMA public TO genjishimada_queue_worker;
-- PGQueuer's loop reads the queue (next deferred job, queue size). Its startup check looks
-- for the log's traceback column and the statistics table in information_schema, which only
-- lists columns the role holds some privilege on: REFERENCES is one that allows nothing here,
-- since the worker cannot create tables.
GRANT SELECT ON pgqueuer TO genjishimada_queue_worker;
GRANT REFERENCES (traceback) ON pgqueuer_log TO genjishimada_queue_worker;
GRANT REFERENCES (id) ON pgqueuer_statistics TO genjishimada_queue_worker;

-- The bot's login sees only the events the bot owns. The owner bypasses this. The event
-- registry (names and owners, no job data) is readable so the policy stays a plain,
-- once-per-query subquery.
GRANT SELECT ON queue_event_types TO genjishimada_queue_worker;
ALTER TABLE pgqueuer ENABLE ROW LEVEL SECURITY;
CREATE POLICY bot_owned_jobs ON pgqueuer FOR SELECT TO genjishimada_queue_worker
    USING (entrypoint IN (SELECT t.event_name FROM queue_event_types t WHERE t.owner = 'bot'));
