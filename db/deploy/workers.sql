-- Worker liveness and the queue settings workers run with. A liveness row belongs to the
-- database session that registered it: another session may beat or remove it only once that
-- session has ended, so one worker login cannot make a running worker look dead.

-- The claim settings the database enforces (queue_claim, queue_begin). Workers read them at
-- start so they heartbeat often enough for the stale threshold they are judged by.
CREATE OR REPLACE FUNCTION queue_config(OUT stale_heartbeat interval, OUT max_reclaims integer)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
    SELECT s.stale_heartbeat, s.max_reclaims FROM queue_settings s;
$$;

-- Registers or refreshes the calling worker's liveness row. The worker login may only register
-- as a bot worker. Returns false when the manager id belongs to another live session.
CREATE OR REPLACE FUNCTION queue_worker_beat(p_manager uuid, p_owner text, p_host text, p_pid integer)
RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
BEGIN
    IF p_owner = 'api' AND queue_session_is_worker() THEN
        RAISE EXCEPTION 'the queue worker login runs bot workers only' USING ERRCODE = '42501';
    END IF;
    INSERT INTO queue_workers AS w (manager_id, owner, host, pid, backend_pid)
    VALUES (p_manager, p_owner, left(p_host, 200), p_pid, pg_backend_pid())
    ON CONFLICT (manager_id) DO UPDATE
        SET beat_at = now(), backend_pid = excluded.backend_pid
        WHERE w.backend_pid = excluded.backend_pid OR NOT queue_session_alive(w.backend_pid);
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    -- Killed workers never say goodbye; forget them once they have been silent for a day.
    DELETE FROM queue_workers w WHERE w.beat_at < now() - interval '1 day';
    RETURN true;
END
$$;

-- Removes a liveness row: the caller's own, or one whose session has ended (a previous
-- connection of a worker that reconnected). Returns whether a row was removed.
-- First it gives back every claim the manager still holds (queue_release, while the row still
-- lets this session act for it): nothing runs them any more. They are the claims its worker
-- never heard of, a claim whose reply was lost with the connection, and the executions a stop
-- cut short; left alone, each would wait out the stale-heartbeat threshold and count as a
-- reclaim against the crash-loop cap.
CREATE OR REPLACE FUNCTION queue_worker_stopped(p_manager uuid) RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_claim record;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM queue_workers w
                   WHERE w.manager_id = p_manager
                     AND (w.backend_pid = pg_backend_pid()
                          OR NOT queue_session_alive(w.backend_pid))) THEN
        RETURN false;
    END IF;
    FOR v_claim IN
        SELECT q.id, q.updated FROM pgqueuer q
        WHERE q.queue_manager_id = p_manager AND q.status = 'picked'
        ORDER BY q.id
    LOOP
        PERFORM queue_release(v_claim.id, p_manager, v_claim.updated, 'its worker stopped');
    END LOOP;
    DELETE FROM queue_workers w
    WHERE w.manager_id = p_manager
      AND (w.backend_pid = pg_backend_pid() OR NOT queue_session_alive(w.backend_pid));
    RETURN FOUND;
END
$$;

-- pg_stat_activity shows every session's pid to every role (other columns need privileges).
CREATE OR REPLACE FUNCTION queue_session_alive(p_pid integer) RETURNS boolean
LANGUAGE sql
STABLE
SET search_path = public, pg_temp
AS $$
    SELECT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = p_pid);
$$;

-- Whether this session logged in as (a member of) the bot's queue-only worker role, and not
-- as a superuser or the database's owner: a superuser is a member of every role, and
-- pg_database_owner, whose only members are the owner and superusers, can be granted to no one.
-- Every fenced write asks this, so it is a SQL function without a SET clause, which the
-- planner inlines into the caller's plan instead of calling; it names no table or operator,
-- so the caller's search_path cannot change what it means.
CREATE OR REPLACE FUNCTION queue_session_is_worker() RETURNS boolean
LANGUAGE sql
STABLE
AS $$
    SELECT pg_catalog.pg_has_role(session_user, 'genjishimada_queue_worker', 'MEMBER')
           AND NOT pg_catalog.pg_has_role(session_user, 'pg_database_owner', 'MEMBER')
$$;

-- Whether this session may act for queue manager p_manager: any session of the owner; for
-- the worker login, only the session that registered the manager (queue_worker_beat), or any
-- once that session has ended (a reconnected worker returning the claims of its previous
-- connection). Claim tokens are readable by every worker session, so the token alone does not
-- make a claim the caller's. Every fenced write asks this too; it is PL/pgSQL, whose plans the
-- session keeps, because its query rules out inlining, and a SQL function that is not inlined
-- is planned again at every call.
CREATE OR REPLACE FUNCTION queue_may_act_for(p_manager uuid) RETURNS boolean
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
BEGIN
    RETURN NOT queue_session_is_worker() OR EXISTS (
        SELECT 1 FROM queue_workers w
        WHERE w.manager_id = p_manager
          AND (w.backend_pid = pg_backend_pid() OR NOT queue_session_alive(w.backend_pid)));
END
$$;
