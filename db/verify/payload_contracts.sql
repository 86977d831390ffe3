SELECT event_name, payload_version FROM payload_contracts WHERE false;
SELECT node, parent, role, field_name, required, json_types FROM payload_contract_nodes WHERE false;
SELECT 'payload_problem(text, integer, jsonb)'::regprocedure;
SELECT 'queue_discard_held(uuid, bigint, text)'::regprocedure;
-- Every registered event has a contract.
SELECT 1 / (NOT EXISTS (SELECT 1 FROM queue_event_types t
                        WHERE NOT EXISTS (SELECT 1 FROM payload_contracts c
                                          WHERE c.event_name = t.event_name)))::int;
SELECT 1 / (NOT has_function_privilege('genjishimada_queue_worker',
    'queue_discard_held(uuid, bigint, text)', 'EXECUTE'))::int;
