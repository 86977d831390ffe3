-- The recorded outcome of automatic (OCR) verification, one row per submission.
--
-- The OCR job writes its row in the same transaction as the verdict or the manual-review jobs
-- it causes, so a retried job that finds the row knows everything it caused was committed and
-- does nothing. 'error' means the OCR service gave no usable answer (nothing was read).

CREATE TABLE completions.ocr_decisions (
    completion_id integer PRIMARY KEY REFERENCES core.completions (id) ON DELETE CASCADE,
    outcome       text NOT NULL CHECK (outcome IN ('match', 'mismatch', 'error')),
    extracted     jsonb CHECK (jsonb_typeof(extracted) = 'object'),
    decided_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ocr_decisions_extracted_unless_error CHECK ((outcome = 'error') = (extracted IS NULL))
);

CREATE TABLE tournaments.ocr_decisions (
    tournament_completion_id integer PRIMARY KEY
        REFERENCES tournaments.completions (id) ON DELETE CASCADE,
    outcome                  text NOT NULL CHECK (outcome IN ('match', 'mismatch', 'error')),
    extracted                jsonb CHECK (jsonb_typeof(extracted) = 'object'),
    decided_at               timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ocr_decisions_extracted_unless_error CHECK ((outcome = 'error') = (extracted IS NULL))
);
