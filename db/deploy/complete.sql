-- Fenced queue writes. A claim is (queue job id, queue_manager_id, updated-at-claim):
-- queue_claim sets `updated` when it claims a row and heartbeats never touch it, so a stale
-- owner's token stops matching the moment another worker reclaims the job. Every write here
-- changes nothing for a stale token, or for a token of a manager the calling worker session did
-- not register (queue_may_act_for), and reports that with false (for heartbeats, the lost ids).

-- Completions are committed asynchronously (synchronous_commit off for the completing
-- transaction): a completion lost in a crash leaves the job claimed by an owner whose heartbeat
-- stops, so it is reclaimed and replayed, and a replay repeats no effect because effects are
-- guarded by receipts and bindings that were committed, synchronously, before it. WAL is
-- sequential: the next synchronous commit of any session (the worker's next claim) flushes the
-- completion too. The setting covers the caller's whole transaction.
--
-- queue_complete_many completes a batch of claims in one statement, each by its own token, and
-- returns one boolean per claim, in order: false when the claim was stale and nothing was
-- written for it.
CREATE OR REPLACE FUNCTION queue_complete_many(
    p_ids bigint[], p_managers uuid[], p_claimed_ats timestamptz[]
)
RETURNS boolean[]
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
-- Its statement takes arrays, so with the default plan cache mode the custom plan always looks
-- cheaper and the statement is planned afresh at every flush; the generic plan suits any flush.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    v_written boolean[];
    v_waited bigint[];
    v_id bigint;
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    WITH claims AS (
        SELECT c.id, c.manager, c.claimed_at, c.ord
        FROM unnest(p_ids, p_managers, p_claimed_ats) WITH ORDINALITY
             AS c(id, manager, claimed_at, ord)
    ), managers AS (
        SELECT m.manager FROM (SELECT DISTINCT c.manager FROM claims c) m
        WHERE queue_may_act_for(m.manager)
    ), done AS (
        DELETE FROM pgqueuer q USING claims c, managers m
        WHERE m.manager = c.manager
          AND q.id = c.id AND q.queue_manager_id = c.manager AND q.updated = c.claimed_at
          AND q.status = 'picked'
        RETURNING q.id, q.entrypoint, q.priority, c.ord
    ), logged AS (
        INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
        SELECT d.id, 'successful', d.entrypoint, d.priority FROM done d
    ), finished AS (
        -- A finished job leaves the index of unfinished entity jobs the start gate reads.
        UPDATE public.jobs j SET finished_at = now() FROM done d WHERE j.queue_job_id = d.id
        RETURNING j.queue_job_id,
            EXISTS (SELECT 1 FROM public.jobs w WHERE w.depends_on = j.id)
            OR (j.entity_key IS NOT NULL AND EXISTS (
                SELECT 1 FROM public.jobs e
                WHERE e.entity_key = j.entity_key AND e.event_seq > j.event_seq
                  AND e.finished_at IS NULL)) AS awaited
    )
    SELECT (SELECT array_agg(d.ord IS NOT NULL ORDER BY c.ord)
            FROM claims c LEFT JOIN done d USING (ord)),
           (SELECT array_agg(f.queue_job_id ORDER BY f.queue_job_id) FROM finished f
            WHERE f.awaited)
    INTO v_written, v_waited;
    -- Only a job that something may wait for (a dependent, a later event of its entity) has
    -- waiters to resume; the test above reads the rows queue_resume_waiters would.
    FOREACH v_id IN ARRAY coalesce(v_waited, '{}') LOOP
        PERFORM queue_resume_waiters(v_id);
    END LOOP;
    RETURN coalesce(v_written, '{}');
END
$$;

CREATE OR REPLACE FUNCTION queue_complete(p_id bigint, p_manager uuid, p_claimed_at timestamptz)
RETURNS boolean
LANGUAGE sql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
    SELECT (queue_complete_many(ARRAY[p_id], ARRAY[p_manager], ARRAY[p_claimed_at]))[1];
$$;

-- Jobs waiting on a job that just succeeded: its dependents and later events of its entity
-- become ready now instead of at their next re-check, and dependents held because the parent
-- had failed go back to the queue by themselves, each as a new generation (as after an
-- operator's retry), so that a later hold of one is a new alert episode.
CREATE OR REPLACE FUNCTION queue_resume_waiters(p_queue_id bigint) RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job   public.jobs;
    v_child public.jobs;
    v_held  bigint[] := '{}';
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.queue_job_id = p_queue_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- A held dependent's job row is locked before its queue row, as recovery locks them, and
    -- the queue row is resumed only if it is still held once that lock is taken (an operator's
    -- retry may have come first).
    FOR v_child IN
        SELECT * FROM public.jobs d
        WHERE d.depends_on = v_job.id AND d.error_code = 'DependencyFailed'
        ORDER BY d.id
        FOR UPDATE
    LOOP
        UPDATE pgqueuer q
        SET status = 'queued', execute_after = now(), updated = now(), queue_manager_id = NULL,
            attempts = 0
        WHERE q.id = v_child.queue_job_id AND q.status = 'failed';
        IF FOUND THEN
            UPDATE public.jobs j
            SET retry_generation = j.retry_generation + 1, handler_failures = 0, held_at = NULL
            WHERE j.id = v_child.id;
            v_held := v_held || v_child.queue_job_id;
        END IF;
    END LOOP;

    -- The delayed waiters become ready; each resumed job, held or delayed, is logged once (a
    -- held one resumed above is ready already, so it is not delayed).
    WITH waiters AS (
        SELECT d.queue_job_id AS id FROM public.jobs d WHERE d.depends_on = v_job.id
        UNION ALL
        SELECT e.queue_job_id
        FROM public.jobs e
        WHERE v_job.entity_key IS NOT NULL AND e.entity_key = v_job.entity_key
          AND e.event_seq > v_job.event_seq AND e.finished_at IS NULL
    ), delayed AS (
        UPDATE pgqueuer q
        SET execute_after = now(), updated = now(), queue_manager_id = NULL
        FROM waiters w
        WHERE q.id = w.id AND q.status = 'queued' AND q.execute_after > now()
        RETURNING q.id, q.entrypoint, q.priority
    ), resumed AS (
        SELECT * FROM delayed
        UNION ALL
        SELECT q.id, q.entrypoint, q.priority FROM pgqueuer q WHERE q.id = ANY (v_held)
    )
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, traceback)
    SELECT r.id, 'queued', r.entrypoint, r.priority,
           jsonb_build_object('exception_type', 'WaitOver',
                              'exception_message', format('job %s succeeded', v_job.id))
    FROM resumed r;
    IF FOUND THEN
        PERFORM queue_wake();
    END IF;
END
$$;

GRANT EXECUTE ON FUNCTION queue_complete_many(bigint[], uuid[], timestamptz[])
    TO genjishimada_queue_worker;
