-- One row per broker import: rerunning an import id is only allowed with the same manifest.
CREATE TABLE queue_imports (
    import_id       text PRIMARY KEY CHECK (import_id ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$'),
    manifest_sha256 text NOT NULL,
    exported_at     timestamptz,
    source_messages integer NOT NULL CHECK (source_messages >= 0),
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- Each source message's disposition names its import, the event it carried and the producer's
-- event key it resolved to (when one could be derived). A message whose effect the domain
-- already shows is 'already_completed'.
ALTER TABLE queue_import_dispositions
    ADD COLUMN import_id  text REFERENCES queue_imports (import_id),
    ADD COLUMN event_name text,
    ADD COLUMN event_key  text,
    DROP CONSTRAINT queue_import_dispositions_disposition_check,
    ADD CONSTRAINT queue_import_dispositions_disposition_check
        CHECK (disposition IN ('imported', 'duplicate', 'already_completed', 'malformed',
                               'unsupported', 'obsolete', 'needs_reconciliation'));
CREATE INDEX queue_import_dispositions_import_idx
    ON queue_import_dispositions (import_id, disposition);
