SELECT state, observed, card_state, card_intent_by, card_intent_at, card_intent_fingerprint,
       card_intent_version, card_deleted_at
FROM job_alerts WHERE false;
SELECT reply_intent_by, reply_intent_at, reply_intent_fingerprint, reply_channel_id
FROM job_alert_episodes WHERE false;
