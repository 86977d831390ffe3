SELECT 'payload_max_bytes()'::regprocedure;
SELECT 'payload_float_overflow()'::regprocedure;
SELECT 'payload_current_version(text)'::regprocedure;
SELECT 'payload_nodes(jsonb)'::regprocedure;
SELECT 'payload_nodes_problem(payload_contract_node[])'::regprocedure;
SELECT 'payload_plain_json_problem(jsonb)'::regprocedure;
SELECT 'payload_is_datetime(text)'::regprocedure;
SELECT 'payload_fast_predicate(payload_contract_node[], integer)'::regprocedure;
SELECT 'payload_fast_check(payload_contract_node[])'::regprocedure;
SELECT 'payload_walk_problem(text, integer, jsonb)'::regprocedure;
SELECT 'payload_problem(text, integer, jsonb)'::regprocedure;
SELECT 'payload_fraction_screen(payload_contract_node[])'::regprocedure;
SELECT 'payload_fraction_suspect(text, text)'::regprocedure;
SELECT 1 / count(*) FROM pg_proc
WHERE proname = 'payload_problem' AND prosrc LIKE '%fraction_screen%';
