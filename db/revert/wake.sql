DROP FUNCTION queue_wake();
