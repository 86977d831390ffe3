SELECT 'job_alerts_reconcile(integer)'::regprocedure;
SELECT 'job_alert_card_begin(uuid, uuid, integer, text, bigint, bigint, interval, timestamptz)'::regprocedure;
SELECT 'job_alert_card_complete(uuid, bigint, bigint, integer)'::regprocedure;
SELECT 'job_alert_card_rendered(uuid, bigint, integer)'::regprocedure;
SELECT 'job_alert_card_gone(uuid, bigint)'::regprocedure;
SELECT 'job_alert_reply_begin(uuid, integer, uuid, text, bigint, interval, timestamptz)'::regprocedure;
SELECT 'job_alert_reply_complete(uuid, integer, bigint, bigint)'::regprocedure;
