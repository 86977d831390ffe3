SELECT 'queue_wake()'::regprocedure;
