-- The previous effect_receipt_begin, whose claim named no queue job, comes back with the revert
-- of effect_claim_signatures; the other functions of sql/receipts.sql did not change.
DROP FUNCTION effect_receipt_begin(uuid, text, text, bigint, uuid, timestamptz);
