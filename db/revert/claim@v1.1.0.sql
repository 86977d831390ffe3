DROP FUNCTION queue_claim(uuid, text[], integer, integer, interval);
