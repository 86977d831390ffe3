SELECT queue_job_id, event_key, payload_hash, schema_version, entity_key, event_seq,
       handler_failures, retry_generation, depends_on, held_at, summarized_at
FROM public.jobs WHERE false;
SELECT 1 / (count(*) = 24)::int FROM queue_event_types;
