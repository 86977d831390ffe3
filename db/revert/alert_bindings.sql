ALTER TABLE job_alert_episodes
    DROP CONSTRAINT job_alert_episodes_notified,
    DROP COLUMN reply_channel_id,
    DROP COLUMN reply_intent_fingerprint,
    DROP COLUMN reply_intent_at,
    DROP COLUMN reply_intent_by;

ALTER TABLE job_alerts
    DROP CONSTRAINT job_alerts_card_message,
    DROP CONSTRAINT job_alerts_card_intent_complete,
    DROP COLUMN card_deleted_at,
    DROP COLUMN card_intent_version,
    DROP COLUMN card_intent_fingerprint,
    DROP COLUMN card_intent_at,
    DROP COLUMN card_intent_by,
    DROP COLUMN card_state,
    DROP COLUMN observed,
    DROP COLUMN state;
