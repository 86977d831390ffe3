-- queue_claim as it was before claim_result dropped it, with its grant to the worker.

-- Claims work for one queue manager: ready jobs of the given entrypoints, and jobs whose
-- owner stopped heartbeating for longer than the database's stale threshold (queue_settings).
-- This is the only way a worker takes a job, and it writes the 'picked' log row itself, so the
-- claim history queue_begin counts reclaims from cannot be forged. PGQueuer's QueueManager
-- runs on it through the worker's adapter.
--
-- Each claimed job passes the start gate (queue_begin, with p_wait) in the same transaction:
-- only jobs that may run now are returned, with their retry generation; deferred and held
-- ones were written back by the gate. A gate that fails holds its job as GateFailed instead
-- of failing the claim, so one bad job cannot stop a worker from claiming.
--
-- An entrypoint runs at most one job at a time across every worker (the unique index
-- pgqueuer_one_running_per_entrypoint): a claim that would start a second one claims nothing.
-- p_worker_limit caps this manager's running jobs. The worker login claims bot-owned events
-- only (other events in p_entrypoints are ignored for it), and only for a manager its own
-- session registered (queue_may_act_for).
CREATE OR REPLACE FUNCTION queue_claim(
    p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer,
    p_wait interval
) RETURNS TABLE (job pgqueuer, retry_generation integer)
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_stale    interval;
    v_names    text[];
    v_room     integer;
    v_claimed  pgqueuer[];
    v_row      pgqueuer;
    v_gate     record;
BEGIN
    IF p_manager IS NULL OR p_batch IS NULL OR p_batch < 1 THEN
        RAISE EXCEPTION 'queue_claim needs a manager id and a batch of at least one'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT s.stale_heartbeat INTO STRICT v_stale FROM queue_settings s;
    SELECT array_agg(t.event_name) INTO v_names
    FROM queue_event_types t
    WHERE t.event_name = ANY (p_entrypoints)
      AND (t.owner = 'bot' OR NOT queue_session_is_worker());
    SELECT least(p_batch, coalesce(p_worker_limit, p_batch) - count(*)) INTO v_room
    FROM pgqueuer q WHERE q.queue_manager_id = p_manager AND q.status = 'picked';
    IF v_names IS NULL OR v_room < 1 OR NOT queue_may_act_for(p_manager) THEN
        RETURN;
    END IF;

    BEGIN
        WITH fresh AS (
            SELECT n.id, n.priority
            FROM unnest(v_names) AS e(name)
            CROSS JOIN LATERAL (
                SELECT q.id, q.priority FROM pgqueuer q
                WHERE q.entrypoint = e.name AND q.status = 'queued' AND q.execute_after <= now()
                  AND NOT EXISTS (SELECT 1 FROM pgqueuer r
                                  WHERE r.entrypoint = e.name AND r.status = 'picked')
                ORDER BY q.priority DESC, q.id
                LIMIT 1
                FOR UPDATE SKIP LOCKED
            ) n
        ), stale AS (
            SELECT q.id, q.priority FROM pgqueuer q
            WHERE q.entrypoint = ANY (v_names) AND q.status = 'picked'
              AND q.heartbeat < now() - v_stale
            ORDER BY q.priority DESC, q.id
            LIMIT v_room
            FOR UPDATE SKIP LOCKED
        ), chosen AS (
            SELECT c.id FROM (SELECT * FROM fresh UNION ALL SELECT * FROM stale) c
            ORDER BY c.priority DESC, c.id
            LIMIT v_room
        ), claimed AS (
            UPDATE pgqueuer q
            SET status = 'picked', updated = now(), heartbeat = now(), queue_manager_id = p_manager
            FROM chosen c WHERE q.id = c.id
            RETURNING q.id, q.entrypoint, q.priority, q AS job
        ), logged AS (
            INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
            SELECT c.id, 'picked', c.entrypoint, c.priority FROM claimed c
        )
        SELECT array_agg(c.job ORDER BY c.priority DESC, c.id) INTO v_claimed FROM claimed c;
    EXCEPTION WHEN unique_violation THEN
        -- Another worker started this entrypoint's one running job at the same moment.
        RETURN;
    END;
    FOREACH v_row IN ARRAY coalesce(v_claimed, '{}') LOOP
        BEGIN
            SELECT b.decision, b.retry_generation INTO v_gate
            FROM queue_begin(v_row.id, p_manager, v_row.updated, p_wait) b;
        EXCEPTION WHEN OTHERS THEN
            PERFORM queue_hold(v_row.id, p_manager, v_row.updated, jsonb_build_object(
                'exception_type', 'GateFailed', 'exception_message', SQLERRM));
            CONTINUE;
        END;
        IF v_gate.decision = 'run' THEN
            job := v_row;
            retry_generation := v_gate.retry_generation;
            RETURN NEXT;
        END IF;
    END LOOP;
END
$$;

GRANT EXECUTE ON FUNCTION queue_claim(uuid, text[], integer, integer, interval)
    TO genjishimada_queue_worker;
