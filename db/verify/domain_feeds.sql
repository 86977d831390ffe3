SELECT id, timestamp, payload, event_type FROM public.newsfeed WHERE false;
SELECT 'public.newsfeed_event_type'::regclass, 'public.newsfeed_id_desc'::regclass;
SELECT id, user_id, event_type, title, body, metadata, created_at, read_at, dismissed_at
FROM notifications.events WHERE false;
SELECT user_id, event_type, channel, enabled FROM notifications.preferences WHERE false;
SELECT id, event_id, channel, status, attempted_at, delivered_at, error_message
FROM notifications.delivery_log WHERE false;
