DROP TABLE queue_import_dispositions;
DROP TABLE job_actions;
DROP TABLE job_alert_episodes;
DROP TABLE job_alerts;
