-- What the alert supervisor needs beyond the released alert tables: the job state the card last
-- showed, and intent-first delivery of the card and of each episode's reply. An intent names the
-- supervisor instance that recorded it, when, and the fingerprint of the message it was about to
-- send, so an id that was never recorded can be looked for in the channel before a replacement.

ALTER TABLE job_alerts
    ADD COLUMN state                   text,
    ADD COLUMN observed                text,
    ADD COLUMN card_state              text NOT NULL DEFAULT 'none'
        CHECK (card_state IN ('none', 'intended', 'completed')),
    ADD COLUMN card_intent_by          uuid,
    ADD COLUMN card_intent_at          timestamptz,
    ADD COLUMN card_intent_fingerprint text,
    ADD COLUMN card_intent_version     integer,
    ADD COLUMN card_deleted_at         timestamptz,
    ADD CONSTRAINT job_alerts_card_intent_complete CHECK (
        card_state = 'none'
        OR (card_intent_by IS NOT NULL AND card_intent_at IS NOT NULL
            AND card_intent_fingerprint IS NOT NULL AND card_intent_version IS NOT NULL)),
    ADD CONSTRAINT job_alerts_card_message CHECK ((card_state = 'completed') = (message_id IS NOT NULL));

ALTER TABLE job_alert_episodes
    ADD COLUMN reply_intent_by          uuid,
    ADD COLUMN reply_intent_at          timestamptz,
    ADD COLUMN reply_intent_fingerprint text,
    ADD COLUMN reply_channel_id         bigint,
    ADD CONSTRAINT job_alert_episodes_notified CHECK ((state = 'notified') = (reply_message_id IS NOT NULL));
