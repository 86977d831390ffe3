-- The start gate's entity-ordering check looks for earlier jobs of the entity that are still
-- unfinished. Completion and discard now set finished_at when they delete the queue row, so an
-- index over only the jobs without finished_at holds every job the check can find: its size
-- follows the entity's open jobs, not its history. Jobs that finished before this change get
-- the time of their terminal log, as log pruning would record it.
UPDATE public.jobs j
SET finished_at = t.created
FROM (SELECT l.job_id, max(l.created) AS created
      FROM pgqueuer_log l
      WHERE l.status IN ('successful', 'exception', 'canceled', 'deleted')
      GROUP BY l.job_id) t
WHERE j.queue_job_id = t.job_id AND j.finished_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM pgqueuer q WHERE q.id = j.queue_job_id);

DROP INDEX jobs_entity_key_event_seq_idx;
CREATE INDEX jobs_entity_key_event_seq_idx ON public.jobs (entity_key, event_seq)
    INCLUDE (queue_job_id, action) WHERE entity_key IS NOT NULL AND finished_at IS NULL;
