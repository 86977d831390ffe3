SELECT 1 / (has_function_privilege('genjishimada_queue_worker', f, 'EXECUTE')
            AND NOT has_function_privilege('public', f, 'EXECUTE'))::integer
FROM unnest(ARRAY[
    'queue_claim(uuid, text[], integer, integer, interval)',
    'queue_complete_and_claim(bigint[], uuid[], timestamptz[], uuid, text[], integer, integer, interval)'
]::regprocedure[]) AS f;
