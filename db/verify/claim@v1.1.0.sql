SELECT 'queue_claim(uuid, text[], integer, integer, interval)'::regprocedure;
