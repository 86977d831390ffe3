DROP INDEX jobs_entity_key_event_seq_idx;
CREATE INDEX jobs_entity_key_event_seq_idx ON public.jobs (entity_key, event_seq)
    INCLUDE (queue_job_id, action) WHERE entity_key IS NOT NULL;
