-- Every event the queue accepts, with its owning process. enqueue_job rejects any other name;
-- the SDK registry is tested against this table. Payload versions are the contracts' own
-- (payload_contracts).
CREATE TABLE queue_event_types (
    event_name      text PRIMARY KEY,
    owner           text NOT NULL CHECK (owner IN ('bot', 'api')),
    entity_ordered  boolean NOT NULL DEFAULT true
);

INSERT INTO queue_event_types (event_name, owner, entity_ordered) VALUES
    ('api.completion.autoverification.failed', 'bot', true),
    ('api.completion.submission', 'bot', true),
    ('api.completion.upvote', 'bot', false),
    ('api.completion.verification', 'bot', true),
    ('api.completion.verification.delete', 'bot', true),
    ('api.map_edit.created', 'bot', true),
    ('api.map_edit.resolved', 'bot', true),
    ('api.newsfeed.create', 'bot', true),
    ('api.notification.delivery', 'bot', true),
    ('api.playtest.create', 'bot', true),
    ('api.playtest.vote.cast', 'bot', false),
    ('api.playtest.vote.remove', 'bot', false),
    ('api.playtest.approve', 'bot', true),
    ('api.playtest.force_accept', 'bot', true),
    ('api.playtest.force_deny', 'bot', true),
    ('api.playtest.reset', 'bot', true),
    ('api.tournament.completion.created', 'bot', true),
    ('api.tournament.verification.changed', 'bot', true),
    ('api.tournament.rollover', 'bot', true),
    ('api.tournament.results', 'bot', true),
    ('api.xp.grant', 'bot', true),
    ('completion.ocr.requested', 'api', true),
    ('tournament.ocr.requested', 'api', true),
    ('map.linked.newsfeed.requested', 'api', true);

-- Orders events of one entity; allocated at enqueue, so it is monotonic per entity_key.
CREATE SEQUENCE job_event_seq AS bigint;

ALTER TABLE public.jobs
    ADD COLUMN queue_job_id     bigint,
    ADD COLUMN event_key        text,
    ADD COLUMN payload_hash     text,
    ADD COLUMN schema_version   integer,
    ADD COLUMN entity_key       text,
    ADD COLUMN event_seq        bigint,
    ADD COLUMN handler_failures integer NOT NULL DEFAULT 0 CHECK (handler_failures >= 0),
    ADD COLUMN retry_generation integer NOT NULL DEFAULT 0 CHECK (retry_generation >= 0),
    ADD COLUMN depends_on       uuid REFERENCES public.jobs (id),
    ADD COLUMN held_at          timestamptz,
    ADD COLUMN summarized_at    timestamptz,
    ADD CONSTRAINT jobs_queue_job_id_key UNIQUE (queue_job_id),
    ADD CONSTRAINT jobs_action_event_key_key UNIQUE (action, event_key),
    ADD CONSTRAINT jobs_identity_complete CHECK (
        queue_job_id IS NULL
        OR (event_key IS NOT NULL AND payload_hash IS NOT NULL AND schema_version IS NOT NULL
            AND event_seq IS NOT NULL)
    );

CREATE INDEX jobs_entity_key_event_seq_idx ON public.jobs (entity_key, event_seq)
    WHERE entity_key IS NOT NULL;
CREATE INDEX jobs_depends_on_idx ON public.jobs (depends_on) WHERE depends_on IS NOT NULL;
