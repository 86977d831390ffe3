SELECT 1 / has_function_privilege(
    'genjishimada_queue_worker', 'queue_claim(uuid, text[], integer, integer, interval)', 'EXECUTE'
)::integer;
SELECT 1 / (NOT has_function_privilege(
    'public', 'queue_claim(uuid, text[], integer, integer, interval)', 'EXECUTE'
))::integer;
