-- Fenced queue writes. A claim is (queue job id, queue_manager_id, updated-at-claim): PGQueuer
-- sets `updated` when it claims a row and heartbeats never touch it, so a stale owner's token
-- stops matching the moment another worker reclaims the job. Every write here changes nothing
-- for a stale token and reports that with false (or, for heartbeats, the lost ids).

CREATE OR REPLACE FUNCTION queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamptz)
RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row pgqueuer;
BEGIN
    DELETE FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
    VALUES (v_row.id, 'successful', v_row.entrypoint, v_row.priority);
    RETURN true;
END
$$;

-- Returns the ids among the given claims that this owner no longer holds.
CREATE OR REPLACE FUNCTION queue_heartbeat(
    p_ids bigint[], p_managers uuid[], p_claimed_at timestamptz[]
) RETURNS SETOF bigint
LANGUAGE sql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
    WITH claims AS (
        SELECT c.id, c.manager, c.claimed_at
        FROM unnest(p_ids, p_managers, p_claimed_at) AS c(id, manager, claimed_at)
    ), beaten AS (
        UPDATE pgqueuer q SET heartbeat = now()
        FROM claims c
        WHERE q.id = c.id AND q.queue_manager_id = c.manager AND q.updated = c.claimed_at
          AND q.status = 'picked'
        RETURNING q.id, q.queue_manager_id, q.updated
    )
    SELECT c.id FROM claims c
    WHERE NOT EXISTS (SELECT 1 FROM beaten b
                      WHERE b.id = c.id AND b.queue_manager_id = c.manager AND b.updated = c.claimed_at);
$$;

-- Returns owned work to the queue without charging anything: used when an execution is
-- interrupted (shutdown, lost connection) rather than failed.
CREATE OR REPLACE FUNCTION queue_release(
    p_id bigint, p_manager uuid, p_claimed_at timestamptz, p_reason text DEFAULT 'released'
) RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row pgqueuer;
BEGIN
    UPDATE pgqueuer q
    SET status = 'queued', queue_manager_id = NULL, updated = now(), execute_after = now()
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    RETURNING q.* INTO v_row;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    VALUES (v_row.id, 'queued', v_row.entrypoint, v_row.priority,
            jsonb_build_object('exception_type', 'Released', 'exception_message', p_reason));
    PERFORM queue_wake();
    RETURN true;
END
$$;
