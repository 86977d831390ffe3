-- The legacy schema the queue replacement upgrades. Written with IF NOT EXISTS so it can be
-- recorded against a production database that already has these objects.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_type WHERE typname = 'job_status') THEN
        CREATE TYPE job_status AS ENUM ('queued', 'processing', 'succeeded', 'failed', 'timeout');
    END IF;
END
$$;

CREATE TABLE IF NOT EXISTS public.jobs (
    id          uuid PRIMARY KEY,
    action      text NOT NULL,
    status      job_status NOT NULL DEFAULT 'queued',
    error_code  text,
    error_msg   text,
    attempts    integer NOT NULL DEFAULT 0,
    created_at  timestamptz DEFAULT now(),
    started_at  timestamptz,
    finished_at timestamptz
);
CREATE INDEX IF NOT EXISTS jobs_status_created_at_idx ON public.jobs (status, created_at);

CREATE TABLE IF NOT EXISTS public.processed_messages (
    idempotency_key text PRIMARY KEY,
    processed_at    timestamptz NOT NULL DEFAULT now()
);
