DROP FUNCTION job_alert_reply_complete(uuid, integer, bigint, bigint);
DROP FUNCTION job_alert_reply_begin(uuid, integer, uuid, text, bigint, interval, timestamptz);
DROP FUNCTION job_alert_card_gone(uuid, bigint);
DROP FUNCTION job_alert_card_rendered(uuid, bigint, integer);
DROP FUNCTION job_alert_card_complete(uuid, bigint, bigint, integer);
DROP FUNCTION job_alert_card_begin(uuid, uuid, integer, text, bigint, bigint, interval, timestamptz);
DROP FUNCTION job_alerts_reconcile(integer);
