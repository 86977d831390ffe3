-- Guards on the queue table so that recovery has one path. A held row (status 'failed') leaves
-- the held state only through an audited recovery_retry or recovery_discard in the same
-- transaction, or, for a job held because its parent had failed, once that parent succeeded
-- (queue_resume_waiters). A queue row is created only by enqueue_job, with its public identity.
-- Raw UPDATE, DELETE, INSERT or TRUNCATE, PGQueuer's `pgq requeue` and `pgq queue` included,
-- fail with GJ009 naming the recovery command.

CREATE OR REPLACE FUNCTION recovery_guard_held_row() RETURNS trigger
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_action text := CASE TG_OP WHEN 'DELETE' THEN 'discard' ELSE 'retry' END;
    v_job    public.jobs;
    v_parent public.jobs;
BEGIN
    SELECT * INTO v_job FROM public.jobs j WHERE j.queue_job_id = OLD.id;
    IF EXISTS (SELECT 1 FROM job_actions a
               WHERE a.job_id = v_job.id AND a.action = v_action AND a.outcome = 'accepted'
                 AND a.xact_id = pg_current_xact_id()) THEN
        RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.status = 'queued' AND v_job.error_code = 'DependencyFailed' THEN
        SELECT * INTO v_parent FROM public.jobs p WHERE p.id = v_job.depends_on;
        IF FOUND AND recovery_job_state(v_parent) = 'succeeded' THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'queue row % (job %) is held; only the recovery service moves a held job',
        OLD.id, coalesce(v_job.id::text, 'without identity')
        USING ERRCODE = 'GJ009',
              HINT = format('genji-jobs %s %s%s (SELECT * FROM recovery_%s(...) in psql); '
                            'see docs/queue-operations.md', v_action, v_job.id,
                            CASE v_action WHEN 'discard' THEN ' --reason ...' ELSE '' END,
                            v_action);
END
$$;

-- Checks a whole INSERT statement's rows at once (a batch enqueue writes many) in one query that
-- stops at the first row without an identity. OFFSET 0 keeps the inner query a per-row index
-- probe: as an anti-join, a plan cached while jobs was small could hash the whole table.
CREATE OR REPLACE FUNCTION recovery_guard_identity() RETURNS trigger
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted_rows n
               WHERE NOT EXISTS (SELECT 1 FROM public.jobs j WHERE j.queue_job_id = n.id OFFSET 0))
    THEN
        RAISE EXCEPTION 'queue rows are created by enqueue_job, with their public job identity'
            USING ERRCODE = 'GJ009',
                  HINT = 'SELECT * FROM enqueue_job(event name, payload, event key); to run a '
                         'held job again: genji-jobs retry <job id>';
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION recovery_guard_truncate() RETURNS trigger
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM pgqueuer q WHERE q.status = 'failed') THEN
        RAISE EXCEPTION 'the queue holds jobs waiting for the operator; it cannot be truncated'
            USING ERRCODE = 'GJ009',
                  HINT = 'genji-jobs list --state held; genji-jobs discard <job id> --reason ...';
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS pgqueuer_held_rows_requeue_through_recovery ON pgqueuer;
CREATE TRIGGER pgqueuer_held_rows_requeue_through_recovery
    BEFORE UPDATE OF status ON pgqueuer
    FOR EACH ROW WHEN (OLD.status = 'failed' AND NEW.status <> 'failed')
    EXECUTE FUNCTION recovery_guard_held_row();

DROP TRIGGER IF EXISTS pgqueuer_held_rows_discard_through_recovery ON pgqueuer;
CREATE TRIGGER pgqueuer_held_rows_discard_through_recovery
    BEFORE DELETE ON pgqueuer
    FOR EACH ROW WHEN (OLD.status = 'failed')
    EXECUTE FUNCTION recovery_guard_held_row();

DROP TRIGGER IF EXISTS pgqueuer_rows_have_identity ON pgqueuer;
CREATE TRIGGER pgqueuer_rows_have_identity
    AFTER INSERT ON pgqueuer
    REFERENCING NEW TABLE AS inserted_rows
    FOR EACH STATEMENT EXECUTE FUNCTION recovery_guard_identity();

DROP TRIGGER IF EXISTS pgqueuer_truncate_keeps_held_rows ON pgqueuer;
CREATE TRIGGER pgqueuer_truncate_keeps_held_rows
    BEFORE TRUNCATE ON pgqueuer
    FOR EACH STATEMENT EXECUTE FUNCTION recovery_guard_truncate();
