DROP TABLE notifications.delivery_log;
DROP TABLE notifications.preferences;
DROP TABLE notifications.events;
DROP TABLE public.newsfeed;
DROP SCHEMA notifications;
