-- Receipts make a job's database mutations replay-safe: one row per (job, effect), written in
-- the same transaction as the mutation it guards.
CREATE TABLE effect_receipts (
    job_id       uuid NOT NULL REFERENCES public.jobs (id),
    effect_key   text NOT NULL CHECK (effect_key <> ''),
    fingerprint  text NOT NULL,
    result       jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    PRIMARY KEY (job_id, effect_key)
);

-- Bindings track external (Discord) effects per destination through their send stages, so a
-- replay resumes incomplete steps and never blindly repeats an uncertain send.
CREATE TABLE effect_bindings (
    job_id      uuid NOT NULL REFERENCES public.jobs (id),
    effect_key  text NOT NULL CHECK (effect_key <> ''),
    destination text NOT NULL CHECK (destination <> ''),
    state       text NOT NULL DEFAULT 'intended'
        CHECK (state IN ('intended', 'uncertain', 'completed', 'skipped', 'failed')),
    channel_id  bigint,
    message_id  bigint,
    thread_id   bigint,
    detail      jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, effect_key, destination)
);
CREATE INDEX effect_bindings_uncertain_idx ON effect_bindings (job_id) WHERE state = 'uncertain';
