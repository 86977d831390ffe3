SELECT 1/count(*) FROM pg_indexes
WHERE indexname = 'jobs_entity_key_event_seq_idx'
  AND indexdef LIKE '%INCLUDE (queue_job_id, action)%'
  AND indexdef LIKE '%finished_at IS NULL%';
