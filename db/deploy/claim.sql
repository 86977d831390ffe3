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
-- pgqueuer_one_running_per_entrypoint). A claim locks only the rows it takes, skipping rows
-- another transaction holds, so concurrent claims pass over each other's jobs instead of
-- waiting on that index (and deadlocking when two took crossed entrypoints). A claim whose
-- snapshot missed another start of the same entrypoint still fails with unique_violation (or
-- a deadlock): that changes nothing, and the caller reads it as nothing claimed.
-- p_worker_limit caps this manager's running jobs. The worker login claims bot-owned events
-- only (other events in p_entrypoints are ignored for it), and only for a manager its own
-- session registered (queue_may_act_for).
--
-- Besides the jobs (in priority order) and their retry generations, a claim says what it left:
-- whether another claim now could take a job (more_ready), and, when it could not, whether
-- jobs of these events are queued at all and how long until the soonest deferred one is due
-- (PGQueuer's queued-work and deferred-eta reads, taken in the claim's transaction). A worker
-- that reads more_ready false waits for a notification or that time instead of asking again.
-- They are NULL, and the jobs none, when the guards let the session claim nothing.
CREATE OR REPLACE FUNCTION queue_claim(
    p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer,
    p_wait interval,
    OUT jobs pgqueuer[], OUT retry_generations integer[], OUT more_ready boolean,
    OUT queued boolean, OUT next_due interval
)
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
-- Its statements take arrays and a LIMIT from variables, so the plan cache's cost comparison
-- may keep planning them afresh at every call (a plan of the candidate scan costs more than
-- running it); the generic plans are the right ones for any queue (one index probe per
-- queued event, the running-jobs index for stale claims) and are planned once per session.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    v_stale    interval;
    v_names    text[];
    v_free     integer;
    v_room     integer;
    v_may_act  boolean;
    v_ids      bigint[];
    v_ready    integer;
    v_queued   text[];
    v_claimed  pgqueuer[];
    v_row      pgqueuer;
    v_gate     record;
BEGIN
    IF p_manager IS NULL OR p_batch IS NULL OR p_batch < 1 THEN
        RAISE EXCEPTION 'queue_claim needs a manager id and a batch of at least one'
            USING ERRCODE = 'GJ003';
    END IF;
    jobs := '{}';
    retry_generations := '{}';
    -- Every guard in one statement, whose plan the session caches. The manager's running jobs
    -- are counted among all running ones (at most one per event), not through the manager's
    -- index: that index keeps an entry of every job the manager ever claimed until a vacuum,
    -- and a bitmap scan of it would read them all at every claim.
    SELECT s.stale_heartbeat,
           (SELECT array_agg(t.event_name) FROM queue_event_types t
            WHERE t.event_name = ANY (p_entrypoints) AND (t.owner = 'bot' OR NOT w.is_worker)),
           (SELECT p_worker_limit - count(*) FILTER (WHERE q.queue_manager_id = p_manager)
            FROM pgqueuer q WHERE q.status = 'picked'),
           queue_may_act_for(p_manager)
    INTO STRICT v_stale, v_names, v_free, v_may_act
    FROM queue_settings s CROSS JOIN (SELECT queue_session_is_worker() AS is_worker) w;
    v_room := least(p_batch, coalesce(v_free, p_batch));
    IF v_names IS NULL OR v_room < 1 OR NOT v_may_act THEN
        RETURN;
    END IF;

    -- The rows to claim are chosen and locked by a read-only statement, so a call that finds
    -- nothing never starts the writing one.
    -- The events that have a queued job come from a loose scan of the queued rows' entrypoint
    -- index (one probe per such event), so the per-event probes below run only for them and
    -- not for every registered event, most of which usually have nothing queued.
    -- Candidates are tried in priority order until the batch is full, each kept if this claim
    -- gets its row, FOR UPDATE SKIP LOCKED: a row another transaction holds (another claim's
    -- start, an effect committing under the old claim, which holds it FOR KEY SHARE) lets the
    -- next candidate in, and one changed since this statement's snapshot is kept only if its
    -- newest version is still claimable. OFFSET 0 keeps the lock above the sort, so only the
    -- candidates tried are locked. The candidates are counted too: any left over (another
    -- event's ready job, or one this claim found locked) may be taken by the next claim.
    WITH RECURSIVE queued_events(name) AS (
        (SELECT q.entrypoint FROM pgqueuer q WHERE q.status = 'queued'
         ORDER BY q.entrypoint LIMIT 1)
        UNION ALL
        SELECT (SELECT q.entrypoint FROM pgqueuer q
                WHERE q.status = 'queued' AND q.entrypoint > e.name
                ORDER BY q.entrypoint LIMIT 1)
        FROM queued_events e WHERE e.name IS NOT NULL
    ), fresh AS (
        SELECT n.id, n.priority
        FROM queued_events e
        CROSS JOIN LATERAL (
            SELECT q.id, q.priority FROM pgqueuer q
            WHERE q.entrypoint = e.name AND q.status = 'queued' AND q.execute_after <= now()
              AND NOT EXISTS (SELECT 1 FROM pgqueuer r
                              WHERE r.entrypoint = e.name AND r.status = 'picked')
            ORDER BY q.priority DESC, q.id
            LIMIT 1
        ) n
        WHERE e.name = ANY (v_names)
    ), stale AS (
        SELECT q.id, q.priority FROM pgqueuer q
        WHERE q.entrypoint = ANY (v_names) AND q.status = 'picked'
          AND q.heartbeat < now() - v_stale
    ), candidates AS MATERIALIZED (
        SELECT * FROM fresh UNION ALL SELECT * FROM stale
    )
    SELECT (SELECT array_agg(k.id)
            FROM (SELECT c.id
                  FROM (SELECT * FROM candidates ORDER BY priority DESC, id OFFSET 0) c
                  WHERE EXISTS (SELECT 1 FROM pgqueuer q
                                WHERE q.id = c.id
                                  AND (q.status = 'queued' AND q.execute_after <= now()
                                       OR q.status = 'picked' AND q.heartbeat < now() - v_stale)
                                FOR UPDATE OF q SKIP LOCKED)
                  LIMIT v_room) k),
           (SELECT count(*) FROM candidates),
           (SELECT array_agg(e.name) FROM queued_events e WHERE e.name = ANY (v_names))
    INTO v_ids, v_ready, v_queued;
    v_ready := v_ready - coalesce(cardinality(v_ids), 0);
    -- The manager's own limit, once this claim's jobs run, may leave no room for another.
    more_ready := v_ready > 0 AND coalesce(v_free - cardinality(v_ids) > 0, true);

    -- No subtransaction here: another start of one of these entrypoints that this claim's
    -- snapshot missed fails the whole call on the unique index (or deadlocks it), and the
    -- caller reads that as "claimed nothing" (genji_queue.claim).
    IF v_ids IS NOT NULL THEN
        WITH claimed AS (
            UPDATE pgqueuer q
            SET status = 'picked', updated = now(), heartbeat = now(),
                queue_manager_id = p_manager
            WHERE q.id = ANY (v_ids)
            RETURNING q.id, q.entrypoint, q.priority, q AS job
        ), logged AS (
            INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
            SELECT c.id, 'picked', c.entrypoint, c.priority FROM claimed c
        )
        SELECT array_agg(c.job ORDER BY c.priority DESC, c.id) INTO v_claimed FROM claimed c;
    END IF;
    FOREACH v_row IN ARRAY coalesce(v_claimed, '{}') LOOP
        BEGIN
            SELECT b.decision, b.retry_generation INTO v_gate
            FROM queue_begin(v_row.id, p_manager, v_row.updated, p_wait) b;
        EXCEPTION WHEN OTHERS THEN
            PERFORM queue_hold(v_row.id, p_manager, v_row.updated, jsonb_build_object(
                'exception_type', 'GateFailed', 'exception_message', SQLERRM));
            more_ready := true;
            CONTINUE;
        END;
        IF v_gate.decision = 'run' THEN
            jobs := jobs || v_row;
            retry_generations := retry_generations || v_gate.retry_generation;
        ELSE
            -- Deferred or held: its event is free again, for a later job of that event.
            more_ready := true;
        END IF;
    END LOOP;

    -- Only the events that had queued jobs when the claim looked can have any now (what the
    -- gate writes back sets more_ready; a job inserted, released or retried since wakes the
    -- worker through queue_wake or the queue's trigger), so these reads probe those events and
    -- not every event the session may claim. Each read is an ordered probe of the queued rows'
    -- (entrypoint, execute_after) index, which passes over the entries of rows already
    -- finished, where a scan of the table would visit each of them.
    IF NOT more_ready THEN
        SELECT coalesce(bool_or(e.first IS NOT NULL), false), min(e.due) - clock_timestamp()
        INTO queued, next_due
        FROM unnest(v_queued) AS n(name)
        CROSS JOIN LATERAL (
            SELECT (SELECT q.execute_after FROM pgqueuer q
                    WHERE q.entrypoint = n.name AND q.status = 'queued'
                    ORDER BY q.execute_after LIMIT 1) AS first,
                   (SELECT q.execute_after FROM pgqueuer q
                    WHERE q.entrypoint = n.name AND q.status = 'queued'
                      AND q.execute_after > now()
                    ORDER BY q.execute_after LIMIT 1) AS due
        ) e;
    END IF;
END
$$;

-- queue_complete_and_claim writes a worker's finished claims (queue_complete_many, each fenced
-- by its own token) and then claims (queue_claim), in one transaction and one round trip: the
-- completions free their events for the claim. The transaction commits asynchronously, as a
-- completion does, only when the claim wrote nothing; when it took jobs, or its gate sent some
-- back (more_ready; also set when candidates were left over, which costs a flush and nothing
-- else), it commits as a claim alone does: no claim is committed asynchronously.
CREATE OR REPLACE FUNCTION queue_complete_and_claim(
    p_ids bigint[], p_managers uuid[], p_claimed_ats timestamptz[],
    p_manager uuid, p_entrypoints text[], p_batch integer, p_worker_limit integer,
    p_wait interval,
    OUT written boolean[], OUT jobs pgqueuer[], OUT retry_generations integer[],
    OUT more_ready boolean, OUT queued boolean, OUT next_due interval
)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_commit text := current_setting('synchronous_commit');
BEGIN
    written := queue_complete_many(p_ids, p_managers, p_claimed_ats);
    SELECT c.jobs, c.retry_generations, c.more_ready, c.queued, c.next_due
    INTO jobs, retry_generations, more_ready, queued, next_due
    FROM queue_claim(p_manager, p_entrypoints, p_batch, p_worker_limit, p_wait) c;
    IF cardinality(jobs) > 0 OR more_ready THEN
        PERFORM set_config('synchronous_commit', v_commit, true);
    END IF;
END
$$;
