-- Decides, at the start of every execution, whether a claimed job may run now. Called by the
-- worker right after PGQueuer claims a row; performs the resulting write itself so the decision
-- and the state change are one transaction. Returns one row:
--   decision 'run'      run the handler (retry_generation and handler_failures are for context)
--            'deferred' rescheduled without charging the failure budget: an earlier job of the
--                       same entity (held included), or the depends_on parent, is unfinished.
--                       The re-check interval starts at p_wait and doubles up to a minute; the
--                       awaited job's completion wakes the waiter at once (queue_resume_waiters)
--            'held'     held with a diagnostic: workers died with this job claimed more than
--                       queue_settings.max_reclaims times, or the depends_on parent failed
--                       terminally
--            'lost'     the caller's claim is stale; nothing was written
CREATE OR REPLACE FUNCTION queue_begin(
    p_id bigint, p_manager uuid, p_claimed_at timestamptz, p_wait interval
) RETURNS TABLE (decision text, retry_generation integer, handler_failures integer)
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job      record;
    v_claims   bigint;
    v_parent   text;
    v_wait     interval;
BEGIN
    SELECT least(p_wait * power(2, least(q.attempts, 10)), interval '1 minute') INTO v_wait
    FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    FOR UPDATE;
    IF NOT FOUND THEN
        decision := 'lost';
        RETURN NEXT;
        RETURN;
    END IF;

    -- Everything the checks below read about the job, in one statement whose plan the session
    -- keeps. claims_ever counts every claim of the job; the count that matters (since its last
    -- return to the queue) is never larger, so it is read only when claims_ever exceeds the cap.
    -- The log is read by job id only, its status tested in FILTER clauses: with a status
    -- condition the planner may walk pgqueuer_log_status, every picked or queued row of every
    -- job, whenever its statistics are stale (as after a TRUNCATE).
    SELECT j.retry_generation AS generation, j.handler_failures AS failures, j.depends_on,
           j.entity_key, j.event_seq,
           (SELECT t.entity_ordered FROM queue_event_types t WHERE t.event_name = j.action)
               AS ordered,
           (SELECT s.max_reclaims FROM queue_settings s) AS max_reclaims,
           (SELECT count(*) FILTER (WHERE l.status = 'picked') FROM pgqueuer_log l
            WHERE l.job_id = p_id) AS claims_ever
    INTO v_job
    FROM public.jobs j WHERE j.queue_job_id = p_id;
    IF NOT FOUND THEN
        PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
            'exception_type', 'MissingJobIdentity',
            'exception_message', 'queue row has no public job identity'));
        decision := 'held';
        RETURN NEXT;
        RETURN;
    END IF;
    IF v_job.max_reclaims IS NULL THEN
        RAISE EXCEPTION 'queue_settings has no row' USING ERRCODE = 'no_data_found';
    END IF;
    retry_generation := v_job.generation;
    handler_failures := v_job.failures;

    -- Claims since the job last went back to the queue: more than one means earlier owners
    -- died while running it. Only queue_claim writes 'picked' rows, so the count is honest.
    IF v_job.claims_ever - 1 > v_job.max_reclaims THEN
        SELECT count(*) FILTER (WHERE l.status = 'picked' AND l.id > coalesce(r.last_queued, 0))
        INTO v_claims
        FROM (SELECT max(q.id) FILTER (WHERE q.status = 'queued') AS last_queued
              FROM pgqueuer_log q WHERE q.job_id = p_id) r
        JOIN pgqueuer_log l ON l.job_id = p_id;
        IF v_claims - 1 > v_job.max_reclaims THEN
            PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
                'exception_type', 'WorkerLost',
                'exception_message',
                format('a worker stopped while running this job %s times', v_claims - 1)));
            decision := 'held';
            RETURN NEXT;
            RETURN;
        END IF;
    END IF;

    IF v_job.depends_on IS NOT NULL THEN
        SELECT s.status INTO v_parent FROM job_public_status(v_job.depends_on) s;
        IF v_parent IN ('queued', 'processing') THEN
            PERFORM queue_retry(p_id, p_manager, p_claimed_at, v_wait, jsonb_build_object(
                'exception_type', 'AwaitingDependency',
                'exception_message', format('waiting for job %s', v_job.depends_on)));
            decision := 'deferred';
            RETURN NEXT;
            RETURN;
        ELSIF v_parent <> 'succeeded' THEN
            PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
                'exception_type', 'DependencyFailed',
                'exception_message', format('job %s it depends on is %s', v_job.depends_on, v_parent)));
            decision := 'held';
            RETURN NEXT;
            RETURN;
        END IF;
    END IF;

    -- An earlier job blocks while its queue row exists (queued, running or held). Completion
    -- and discard set finished_at with the row's deletion, so the partial index on unfinished
    -- jobs holds every such job and the read does not grow with the entity's history.
    IF v_job.ordered AND v_job.entity_key IS NOT NULL AND EXISTS (
        SELECT 1
        FROM public.jobs e
        JOIN queue_event_types et ON et.event_name = e.action AND et.entity_ordered
        JOIN pgqueuer eq ON eq.id = e.queue_job_id
        WHERE e.entity_key = v_job.entity_key AND e.event_seq < v_job.event_seq
          AND e.finished_at IS NULL
    ) THEN
        PERFORM queue_retry(p_id, p_manager, p_claimed_at, v_wait, jsonb_build_object(
            'exception_type', 'AwaitingEarlierEvent',
            'exception_message', format('an earlier job for %s is unfinished', v_job.entity_key)));
        decision := 'deferred';
        RETURN NEXT;
        RETURN;
    END IF;

    decision := 'run';
    RETURN NEXT;
END
$$;
