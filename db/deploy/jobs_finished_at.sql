-- queue_complete and recovery_discard now set finished_at when they delete a job's queue row.
-- Jobs that finished before get the time of their terminal log, as log pruning records it.
-- Its own change, committed before the entity-ordering index is rebuilt over unfinished jobs,
-- so that index is not built over the row versions this update leaves behind.
UPDATE public.jobs j
SET finished_at = t.created
FROM (SELECT l.job_id, max(l.created) AS created
      FROM pgqueuer_log l
      WHERE l.status IN ('successful', 'exception', 'canceled', 'deleted')
      GROUP BY l.job_id) t
WHERE j.queue_job_id = t.job_id AND j.finished_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM pgqueuer q WHERE q.id = j.queue_job_id);
