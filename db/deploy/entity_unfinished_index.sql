-- The start gate's entity-ordering check looks for earlier jobs of the entity that are still
-- unfinished. Completion and discard set finished_at when they delete the queue row, so an
-- index over only the jobs without finished_at holds every job the check can find: its size
-- follows the entity's open jobs, not its history.
DROP INDEX jobs_entity_key_event_seq_idx;
CREATE INDEX jobs_entity_key_event_seq_idx ON public.jobs (entity_key, event_seq)
    INCLUDE (queue_job_id, action) WHERE entity_key IS NOT NULL AND finished_at IS NULL;
