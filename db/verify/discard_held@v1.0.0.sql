SELECT 'queue_discard_held(uuid, bigint, text)'::regprocedure;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'queue_discard_held(uuid, bigint, text)', 'EXECUTE'))::int;
