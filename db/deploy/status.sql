-- Projects durable queue state onto the public job status contract
-- (queued | processing | succeeded | failed | timeout). Errors:
--   GJ404 no such job
--   GJ500 the job's queue metadata is missing or inconsistent; needs reconciliation
CREATE OR REPLACE FUNCTION job_public_status(p_job_id uuid)
RETURNS TABLE (job_id uuid, status text, error_code text, error_msg text)
LANGUAGE plpgsql
STABLE
SET search_path = public, pg_temp
AS $$
DECLARE
    v_job      public.jobs;
    v_active   pgqueuer_status;
    v_terminal record;
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.id = p_job_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % not found', p_job_id USING ERRCODE = 'GJ404';
    END IF;

    -- Legacy rows keep the status they recorded.
    IF v_job.queue_job_id IS NULL THEN
        RETURN QUERY SELECT v_job.id, v_job.status::text, v_job.error_code, v_job.error_msg;
        RETURN;
    END IF;

    -- The active row wins over any earlier failure logs.
    SELECT q.status INTO v_active FROM pgqueuer q WHERE q.id = v_job.queue_job_id;
    IF FOUND THEN
        CASE v_active
            WHEN 'queued' THEN
                RETURN QUERY SELECT v_job.id, 'queued'::text, NULL::text, NULL::text;
            WHEN 'picked' THEN
                RETURN QUERY SELECT v_job.id, 'processing'::text, NULL::text, NULL::text;
            WHEN 'failed' THEN
                RETURN QUERY SELECT v_job.id, 'failed'::text,
                    coalesce(v_job.error_code, 'held'), coalesce(v_job.error_msg, 'Job is held.');
            ELSE
                RAISE EXCEPTION 'job % has an active queue row in terminal state %', p_job_id, v_active
                    USING ERRCODE = 'GJ500';
        END CASE;
        RETURN;
    END IF;

    SELECT l.status, l.traceback INTO v_terminal
    FROM pgqueuer_log l
    WHERE l.job_id = v_job.queue_job_id
      AND l.status IN ('successful', 'exception', 'canceled', 'deleted')
    ORDER BY l.created DESC, l.id DESC
    LIMIT 1;
    IF FOUND THEN
        RETURN QUERY SELECT v_job.id, s.status, s.error_code, s.error_msg
        FROM job_terminal_summary(v_terminal.status::text, v_terminal.traceback) s;
        RETURN;
    END IF;

    -- Logs were pruned: the summary written in the same transaction is authoritative.
    IF v_job.summarized_at IS NOT NULL THEN
        RETURN QUERY SELECT v_job.id, v_job.status::text, v_job.error_code, v_job.error_msg;
        RETURN;
    END IF;

    RAISE EXCEPTION 'job % has neither an active queue row, a terminal log nor a summary', p_job_id
        USING ERRCODE = 'GJ500', HINT = 'reconcile queue_job_id against pgqueuer and pgqueuer_log';
END
$$;
