-- The start gate's entity-ordering check reads every earlier job of the entity. With the
-- queue id and the event name in the index those reads stay in the index (an index-only scan
-- of a few pages) instead of visiting one heap page per earlier job.
DROP INDEX jobs_entity_key_event_seq_idx;
CREATE INDEX jobs_entity_key_event_seq_idx ON public.jobs (entity_key, event_seq)
    INCLUDE (queue_job_id, action) WHERE entity_key IS NOT NULL;
