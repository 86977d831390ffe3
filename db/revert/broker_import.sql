-- The earlier check knows no 'already_completed': such rows go back to needing reconciliation.
UPDATE queue_import_dispositions
SET disposition = 'needs_reconciliation',
    detail = 'recorded as already_completed before this schema was reverted; ' || coalesce(detail, '')
WHERE disposition = 'already_completed';
DROP INDEX queue_import_dispositions_import_idx;
ALTER TABLE queue_import_dispositions
    DROP CONSTRAINT queue_import_dispositions_disposition_check,
    ADD CONSTRAINT queue_import_dispositions_disposition_check
        CHECK (disposition IN ('imported', 'duplicate', 'malformed', 'unsupported', 'obsolete',
                               'needs_reconciliation')),
    DROP COLUMN event_key,
    DROP COLUMN event_name,
    DROP COLUMN import_id;
DROP TABLE queue_imports;
