SELECT 'effect_receipt_begin(uuid, text, text, uuid, timestamptz)'::regprocedure;
SELECT 'effect_receipt_complete(uuid, text, jsonb)'::regprocedure;
SELECT 'effect_receipt_require_completion()'::regprocedure;
SELECT 1 / count(*) FROM pg_trigger
WHERE tgname = 'effect_receipts_completed_at_commit' AND tgrelid = 'effect_receipts'::regclass;
