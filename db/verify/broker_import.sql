SELECT import_id, manifest_sha256, exported_at, source_messages, created_at
FROM queue_imports WHERE false;
SELECT import_id, event_name, event_key FROM queue_import_dispositions WHERE false;
SELECT 1 / count(*)::int FROM pg_constraint
WHERE conname = 'queue_import_dispositions_disposition_check'
  AND pg_get_constraintdef(oid) LIKE '%already_completed%';
