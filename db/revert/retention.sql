-- Prunes detailed queue logs of finished jobs older than p_retention, writing each job's
-- terminal summary onto public.jobs in the same transaction first. Jobs with an active queue
-- row (queued, retrying, running, held, waiting on a dependency) or an uncertain external
-- effect are never touched. Returns the number of jobs whose logs were removed.
CREATE OR REPLACE FUNCTION queue_prune_logs(
    p_retention interval DEFAULT interval '30 days', p_batch integer DEFAULT 1000
) RETURNS integer
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_pruned integer;
BEGIN
    WITH finished AS (
        SELECT DISTINCT ON (l.job_id) l.job_id, l.status, l.traceback, l.created
        FROM pgqueuer_log l
        WHERE l.status IN ('successful', 'exception', 'canceled', 'deleted')
          AND l.created < now() - p_retention
        ORDER BY l.job_id, l.created DESC, l.id DESC
    ), prunable AS (
        SELECT f.* FROM finished f
        WHERE NOT EXISTS (SELECT 1 FROM pgqueuer q WHERE q.id = f.job_id)
          AND NOT EXISTS (SELECT 1 FROM pgqueuer_log newer
                          WHERE newer.job_id = f.job_id AND newer.created >= now() - p_retention)
          AND NOT EXISTS (SELECT 1 FROM public.jobs j
                          JOIN effect_bindings b ON b.job_id = j.id AND b.state = 'uncertain'
                          WHERE j.queue_job_id = f.job_id)
        ORDER BY f.created
        LIMIT p_batch
    ), summarized AS (
        UPDATE public.jobs j
        SET status = s.status::job_status, error_code = s.error_code, error_msg = s.error_msg,
            finished_at = p.created,
            summarized_at = now()
        FROM prunable p CROSS JOIN LATERAL job_terminal_summary(p.status::text, p.traceback) s
        WHERE j.queue_job_id = p.job_id
        RETURNING j.id
    ), removed AS (
        DELETE FROM pgqueuer_log l USING prunable p WHERE l.job_id = p.job_id
        RETURNING l.job_id
    )
    SELECT count(DISTINCT r.job_id) INTO v_pruned FROM removed r;

    DELETE FROM pgqueuer_statistics s WHERE s.created < now() - p_retention;
    RETURN v_pruned;
END
$$;
