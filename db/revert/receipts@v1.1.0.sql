DROP TRIGGER effect_receipts_completed_at_commit ON effect_receipts;
DROP FUNCTION effect_receipt_require_completion();
DROP FUNCTION effect_receipt_complete(uuid, text, jsonb);
DROP FUNCTION effect_receipt_begin(uuid, text, text, uuid, timestamptz);
