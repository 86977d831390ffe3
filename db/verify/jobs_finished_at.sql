SELECT 1/(NOT EXISTS (
    SELECT 1 FROM public.jobs j
    JOIN pgqueuer_log l ON l.job_id = j.queue_job_id
                       AND l.status IN ('successful', 'exception', 'canceled', 'deleted')
    WHERE j.finished_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM pgqueuer q WHERE q.id = j.queue_job_id)))::int;
