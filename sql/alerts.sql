-- Operator failure alerts: durable records reconciled from held queue state, and intent-first
-- delivery of each job's card and of one reply per failure episode.
--   job_alerts_reconcile      opens an episode for every held job whose current generation has
--                             none (under the job's row lock), and records each open alert's
--                             current state, moving its desired version when the state changed
--   job_alert_card_begin      records the intent to send the card, or says why not now
--   job_alert_card_complete   records the sent card's ids
--   job_alert_card_rendered   records that the card shows a version
--   job_alert_card_gone       forgets a card Discord confirmed deleted, so it is sent again
--   job_alert_reply_begin     records the intent to send an episode's reply
--   job_alert_reply_complete  records the reply's id: the episode is notified
-- Delivery needs no queue claim: the alert record authorizes it (the API checks the caller's
-- jobs:manage scope). A begin answers
--   fresh      the intent is recorded: send now, then complete
--   completed  the message id is recorded: nothing to send
--   busy       another supervisor recorded an intent within the lease: leave it alone
--   reconcile  an intent without an id (this caller's, expired, or marked uncertain): look for
--              its fingerprint in the channel, complete with what is found, or begin again with
--              p_replaces = the intent's time to take it over and send a replacement
-- Errors: GJ003 bad arguments, GJ404 no such alert or episode, GJ006 completing what has no
-- intent.

CREATE OR REPLACE FUNCTION job_alerts_reconcile(p_limit integer DEFAULT 200)
RETURNS TABLE (opened integer, changed integer)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_candidate uuid;
    v_job       public.jobs;
    v_queue     pgqueuer;
    v_public    text;
    v_state     text;
    v_observed  text;
    v_opened    integer := 0;
    v_changed   integer := 0;
BEGIN
    IF p_limit IS NULL OR p_limit < 1 THEN
        RAISE EXCEPTION 'a reconcile needs a positive limit' USING ERRCODE = 'GJ003';
    END IF;

    FOR v_candidate IN
        SELECT j.id FROM pgqueuer q JOIN public.jobs j ON j.queue_job_id = q.id
        WHERE q.status = 'failed'
          AND NOT EXISTS (SELECT 1 FROM job_alert_episodes e
                          WHERE e.job_id = j.id AND e.retry_generation = j.retry_generation)
        ORDER BY q.updated, q.id
        LIMIT p_limit
    LOOP
        -- The row lock recovery takes first: a retry that committed since the scan is seen
        -- here (a new generation, no longer held), so a stale observation opens nothing.
        SELECT * INTO v_job FROM public.jobs j WHERE j.id = v_candidate FOR UPDATE;
        SELECT * INTO v_queue FROM pgqueuer q WHERE q.id = v_job.queue_job_id;
        CONTINUE WHEN NOT FOUND OR v_queue.status <> 'failed';
        INSERT INTO job_alerts (job_id) VALUES (v_job.id) ON CONFLICT (job_id) DO NOTHING;
        INSERT INTO job_alert_episodes (job_id, retry_generation, error_summary, failed_at)
        VALUES (v_job.id, v_job.retry_generation,
                left(coalesce(v_job.error_code, 'held')
                     || coalesce(': ' || nullif(v_job.error_msg, ''), ''), 400),
                coalesce(v_job.held_at, v_queue.updated))
        ON CONFLICT (job_id, retry_generation) DO NOTHING;
        IF FOUND THEN
            v_opened := v_opened + 1;
        END IF;
    END LOOP;

    -- Open alerts follow their job: queued or running after a retry, succeeded, discarded,
    -- held again, in recovery's terms (recovery_job_state). A finished job's public status
    -- (job_public_status, which survives log pruning through the summaries on public.jobs) is
    -- part of what is observed.
    FOR v_job IN
        SELECT j.* FROM job_alerts a JOIN public.jobs j ON j.id = a.job_id
        WHERE a.state IS NULL OR a.state NOT IN ('succeeded', 'discarded')
        ORDER BY a.created_at, a.job_id
    LOOP
        v_state := recovery_job_state(v_job);
        v_public := NULL;
        IF v_state IN ('succeeded', 'discarded', 'needs_inspection') THEN
            BEGIN
                SELECT s.status || ':' || coalesce(s.error_code, '') INTO v_public
                FROM job_public_status(v_job.id) s;
            EXCEPTION WHEN SQLSTATE 'GJ500' THEN
                v_state := 'needs_inspection';
            END;
        END IF;
        v_observed := md5(jsonb_build_array(
            v_state, v_public, v_job.retry_generation, v_job.handler_failures,
            v_job.error_code, v_job.error_msg, v_job.held_at,
            (SELECT coalesce(jsonb_agg(jsonb_build_array(b.effect_key, b.destination, b.state)
                                       ORDER BY b.effect_key, b.destination), '[]')
             FROM effect_bindings b WHERE b.job_id = v_job.id),
            (SELECT coalesce(jsonb_agg(jsonb_build_array(r.effect_key, r.completed_at IS NOT NULL)
                                       ORDER BY r.effect_key), '[]')
             FROM effect_receipts r WHERE r.job_id = v_job.id))::text);
        UPDATE job_alerts a
        SET state = v_state, observed = v_observed, updated_at = now(),
            desired_version = a.desired_version + CASE WHEN a.observed IS NULL THEN 0 ELSE 1 END
        WHERE a.job_id = v_job.id AND a.observed IS DISTINCT FROM v_observed;
        IF FOUND THEN
            v_changed := v_changed + 1;
        END IF;
    END LOOP;

    RETURN QUERY SELECT v_opened, v_changed;
END
$$;

CREATE OR REPLACE FUNCTION job_alert_card_begin(
    p_job_id uuid, p_holder uuid, p_version integer, p_fingerprint text, p_guild_id bigint,
    p_channel_id bigint, p_lease interval, p_replaces timestamptz DEFAULT NULL
) RETURNS TABLE (decision text, alert job_alerts)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_holder IS NULL OR p_version IS NULL OR p_version < 1
       OR coalesce(p_fingerprint, '') = '' OR p_channel_id IS NULL OR p_lease IS NULL THEN
        RAISE EXCEPTION 'a card intent needs a holder, a version, a fingerprint, a channel '
            'and a lease' USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.card_state = 'completed' THEN
        RETURN QUERY SELECT 'completed'::text, v_row;
        RETURN;
    END IF;
    IF v_row.card_state = 'none' OR v_row.card_intent_at = p_replaces THEN
        UPDATE job_alerts a
        SET card_state = 'intended', card_intent_by = p_holder, card_intent_at = now(),
            card_intent_fingerprint = p_fingerprint, card_intent_version = p_version,
            guild_id = p_guild_id, channel_id = p_channel_id, updated_at = now()
        WHERE a.job_id = p_job_id
        RETURNING a.* INTO v_row;
        RETURN QUERY SELECT 'fresh'::text, v_row;
        RETURN;
    END IF;
    IF v_row.card_intent_by <> p_holder AND v_row.card_intent_at > now() - p_lease THEN
        RETURN QUERY SELECT 'busy'::text, v_row;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'reconcile'::text, v_row;
END
$$;

CREATE OR REPLACE FUNCTION job_alert_card_complete(
    p_job_id uuid, p_channel_id bigint, p_message_id bigint, p_version integer
) RETURNS job_alerts
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_channel_id IS NULL OR p_message_id IS NULL OR p_version IS NULL THEN
        RAISE EXCEPTION 'a sent card needs its channel, message id and version'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.card_state = 'none' THEN
        RAISE EXCEPTION 'the card of job % has no recorded intent', p_job_id
            USING ERRCODE = 'GJ006';
    END IF;
    -- Completed with another id: the caller's message is the duplicate, and it sees so.
    IF v_row.card_state = 'completed' AND v_row.message_id <> p_message_id THEN
        RETURN v_row;
    END IF;
    UPDATE job_alerts a
    SET card_state = 'completed', channel_id = p_channel_id, message_id = p_message_id,
        rendered_version = greatest(a.rendered_version, p_version), updated_at = now()
    WHERE a.job_id = p_job_id
    RETURNING a.* INTO v_row;
    RETURN v_row;
END
$$;

CREATE OR REPLACE FUNCTION job_alert_card_rendered(
    p_job_id uuid, p_message_id bigint, p_version integer
) RETURNS job_alerts
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_message_id IS NULL OR p_version IS NULL THEN
        RAISE EXCEPTION 'a rendered card needs its message id and version'
            USING ERRCODE = 'GJ003';
    END IF;
    UPDATE job_alerts a
    SET rendered_version = greatest(a.rendered_version, p_version), updated_at = now()
    WHERE a.job_id = p_job_id AND a.message_id = p_message_id
    RETURNING a.* INTO v_row;
    IF NOT FOUND THEN
        SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
        END IF;
    END IF;
    RETURN v_row;
END
$$;

-- Only a deletion Discord confirmed (the message is not found) reaches this; a channel that
-- cannot be read is no evidence, and the card stays recorded.
CREATE OR REPLACE FUNCTION job_alert_card_gone(p_job_id uuid, p_message_id bigint)
RETURNS job_alerts
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row job_alerts;
BEGIN
    IF p_message_id IS NULL THEN
        RAISE EXCEPTION 'a deleted card needs its message id' USING ERRCODE = 'GJ003';
    END IF;
    UPDATE job_alerts a
    SET card_state = 'none', message_id = NULL, card_intent_by = NULL, card_intent_at = NULL,
        card_intent_fingerprint = NULL, card_intent_version = NULL, rendered_version = 0,
        card_deleted_at = now(), updated_at = now()
    WHERE a.job_id = p_job_id AND a.message_id = p_message_id
    RETURNING a.* INTO v_row;
    IF NOT FOUND THEN
        SELECT * INTO v_row FROM job_alerts a WHERE a.job_id = p_job_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'job % has no alert', p_job_id USING ERRCODE = 'GJ404';
        END IF;
    END IF;
    RETURN v_row;
END
$$;

CREATE OR REPLACE FUNCTION job_alert_reply_begin(
    p_job_id uuid, p_generation integer, p_holder uuid, p_fingerprint text, p_channel_id bigint,
    p_lease interval, p_replaces timestamptz DEFAULT NULL
) RETURNS TABLE (decision text, episode job_alert_episodes)
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row job_alert_episodes;
BEGIN
    IF p_holder IS NULL OR coalesce(p_fingerprint, '') = '' OR p_channel_id IS NULL
       OR p_lease IS NULL THEN
        RAISE EXCEPTION 'a reply intent needs a holder, a fingerprint, a channel and a lease'
            USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alert_episodes e
    WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
    FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert episode for generation %', p_job_id, p_generation
            USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.state = 'notified' THEN
        RETURN QUERY SELECT 'completed'::text, v_row;
        RETURN;
    END IF;
    IF v_row.reply_intent_at IS NULL OR v_row.reply_intent_at = p_replaces THEN
        UPDATE job_alert_episodes e
        SET state = 'pending', reply_intent_by = p_holder, reply_intent_at = now(),
            reply_intent_fingerprint = p_fingerprint, reply_channel_id = p_channel_id
        WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
        RETURNING e.* INTO v_row;
        RETURN QUERY SELECT 'fresh'::text, v_row;
        RETURN;
    END IF;
    IF v_row.state = 'pending' AND v_row.reply_intent_by <> p_holder
       AND v_row.reply_intent_at > now() - p_lease THEN
        RETURN QUERY SELECT 'busy'::text, v_row;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'reconcile'::text, v_row;
END
$$;

CREATE OR REPLACE FUNCTION job_alert_reply_complete(
    p_job_id uuid, p_generation integer, p_channel_id bigint, p_message_id bigint
) RETURNS job_alert_episodes
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    v_row job_alert_episodes;
BEGIN
    IF p_channel_id IS NULL OR p_message_id IS NULL THEN
        RAISE EXCEPTION 'a sent reply needs its channel and message id' USING ERRCODE = 'GJ003';
    END IF;
    SELECT * INTO v_row FROM job_alert_episodes e
    WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
    FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'job % has no alert episode for generation %', p_job_id, p_generation
            USING ERRCODE = 'GJ404';
    END IF;
    IF v_row.state = 'notified' THEN
        RETURN v_row;
    END IF;
    IF v_row.reply_intent_at IS NULL THEN
        RAISE EXCEPTION 'the reply of job % generation % has no recorded intent', p_job_id,
            p_generation USING ERRCODE = 'GJ006';
    END IF;
    UPDATE job_alert_episodes e
    SET state = 'notified', reply_message_id = p_message_id, reply_channel_id = p_channel_id,
        notified_at = now()
    WHERE e.job_id = p_job_id AND e.retry_generation = p_generation
    RETURNING e.* INTO v_row;
    RETURN v_row;
END
$$;
