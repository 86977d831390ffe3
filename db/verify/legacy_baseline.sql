SELECT id, action, status, error_code, error_msg, attempts, created_at, started_at, finished_at
FROM public.jobs WHERE false;
SELECT idempotency_key, processed_at FROM public.processed_messages WHERE false;
