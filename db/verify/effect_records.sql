SELECT job_id, effect_key, fingerprint, result, created_at, completed_at FROM effect_receipts WHERE false;
SELECT job_id, effect_key, destination, state, channel_id, message_id, thread_id, detail
FROM effect_bindings WHERE false;
