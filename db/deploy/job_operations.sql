-- One operator alert card per logical job.
CREATE TABLE job_alerts (
    job_id          uuid PRIMARY KEY REFERENCES public.jobs (id),
    guild_id        bigint,
    channel_id      bigint,
    message_id      bigint,
    desired_version integer NOT NULL DEFAULT 1,
    rendered_version integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- A failure episode per retry generation: each gets exactly one operator mention.
CREATE TABLE job_alert_episodes (
    job_id           uuid NOT NULL REFERENCES job_alerts (job_id),
    retry_generation integer NOT NULL CHECK (retry_generation >= 0),
    state            text NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'uncertain', 'notified')),
    reply_message_id bigint,
    error_summary    text,
    failed_at        timestamptz NOT NULL DEFAULT now(),
    notified_at      timestamptz,
    PRIMARY KEY (job_id, retry_generation)
);

-- Every recovery action, keyed by the caller's idempotency key so a repeated request
-- resolves to the recorded outcome instead of acting twice.
CREATE TABLE job_actions (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id              uuid NOT NULL REFERENCES public.jobs (id),
    action              text NOT NULL CHECK (action IN ('retry', 'discard', 'resolve_effect')),
    idempotency_key     text NOT NULL UNIQUE,
    actor_id            bigint NOT NULL,
    expected_generation integer,
    outcome             text NOT NULL,
    reason              text,
    detail              jsonb,
    created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_actions_job_id_idx ON job_actions (job_id);

-- What became of each message exported from the retired broker; reruns are keyed by source.
CREATE TABLE queue_import_dispositions (
    source_id    text PRIMARY KEY,
    source_queue text NOT NULL,
    disposition  text NOT NULL
        CHECK (disposition IN ('imported', 'duplicate', 'malformed', 'unsupported', 'obsolete',
                               'needs_reconciliation')),
    job_id       uuid REFERENCES public.jobs (id),
    detail       text,
    recorded_at  timestamptz NOT NULL DEFAULT now()
);
