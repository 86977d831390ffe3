DELETE FROM payload_contracts;
DROP FUNCTION queue_trace_filter(jsonb);
