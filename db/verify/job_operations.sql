SELECT job_id, guild_id, channel_id, message_id, desired_version, rendered_version FROM job_alerts WHERE false;
SELECT job_id, retry_generation, state, reply_message_id FROM job_alert_episodes WHERE false;
SELECT id, job_id, action, idempotency_key, actor_id, outcome FROM job_actions WHERE false;
SELECT source_id, source_queue, disposition, job_id FROM queue_import_dispositions WHERE false;
