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
    v_job      public.jobs;
    v_ordered  boolean;
    v_claims   integer;
    v_max      integer;
    v_parent   text;
    v_wait     interval;
BEGIN
    SELECT least(p_wait * power(2, least(q.attempts, 10)), interval '1 minute') INTO v_wait
    FROM pgqueuer q
    WHERE q.id = p_id AND q.queue_manager_id = p_manager AND q.updated = p_claimed_at
      AND q.status = 'picked'
    FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'lost'::text, NULL::integer, NULL::integer;
        RETURN;
    END IF;
    SELECT * INTO v_job FROM public.jobs j WHERE j.queue_job_id = p_id;
    IF NOT FOUND THEN
        PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
            'exception_type', 'MissingJobIdentity',
            'exception_message', 'queue row has no public job identity'));
        RETURN QUERY SELECT 'held'::text, NULL::integer, NULL::integer;
        RETURN;
    END IF;

    -- Claims since the job last went back to the queue: more than one means earlier owners
    -- died while running it. Only queue_claim writes 'picked' rows, so the count is honest.
    SELECT count(*) INTO v_claims FROM pgqueuer_log l
    WHERE l.job_id = p_id AND l.status = 'picked'
      AND l.id > coalesce((SELECT max(r.id) FROM pgqueuer_log r
                           WHERE r.job_id = p_id AND r.status = 'queued'), 0);
    SELECT s.max_reclaims INTO STRICT v_max FROM queue_settings s;
    IF v_claims - 1 > v_max THEN
        PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
            'exception_type', 'WorkerLost',
            'exception_message', format('a worker stopped while running this job %s times', v_claims - 1)));
        RETURN QUERY SELECT 'held'::text, v_job.retry_generation, v_job.handler_failures;
        RETURN;
    END IF;

    IF v_job.depends_on IS NOT NULL THEN
        SELECT s.status INTO v_parent FROM job_public_status(v_job.depends_on) s;
        IF v_parent IN ('queued', 'processing') THEN
            PERFORM queue_retry(p_id, p_manager, p_claimed_at, v_wait, jsonb_build_object(
                'exception_type', 'AwaitingDependency',
                'exception_message', format('waiting for job %s', v_job.depends_on)));
            RETURN QUERY SELECT 'deferred'::text, v_job.retry_generation, v_job.handler_failures;
            RETURN;
        ELSIF v_parent <> 'succeeded' THEN
            PERFORM queue_hold(p_id, p_manager, p_claimed_at, jsonb_build_object(
                'exception_type', 'DependencyFailed',
                'exception_message', format('job %s it depends on is %s', v_job.depends_on, v_parent)));
            RETURN QUERY SELECT 'held'::text, v_job.retry_generation, v_job.handler_failures;
            RETURN;
        END IF;
    END IF;

    SELECT t.entity_ordered INTO v_ordered FROM queue_event_types t WHERE t.event_name = v_job.action;
    IF v_ordered AND v_job.entity_key IS NOT NULL AND EXISTS (
        SELECT 1
        FROM public.jobs e
        JOIN queue_event_types et ON et.event_name = e.action AND et.entity_ordered
        JOIN pgqueuer eq ON eq.id = e.queue_job_id
        WHERE e.entity_key = v_job.entity_key AND e.event_seq < v_job.event_seq
    ) THEN
        PERFORM queue_retry(p_id, p_manager, p_claimed_at, v_wait, jsonb_build_object(
            'exception_type', 'AwaitingEarlierEvent',
            'exception_message', format('an earlier job for %s is unfinished', v_job.entity_key)));
        RETURN QUERY SELECT 'deferred'::text, v_job.retry_generation, v_job.handler_failures;
        RETURN;
    END IF;

    RETURN QUERY SELECT 'run'::text, v_job.retry_generation, v_job.handler_failures;
END
$$;
