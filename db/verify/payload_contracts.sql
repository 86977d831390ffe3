-- Every registered event has a contract.
SELECT 1 / (NOT EXISTS (SELECT 1 FROM queue_event_types t
                        WHERE NOT EXISTS (SELECT 1 FROM payload_contracts c
                                          WHERE c.event_name = t.event_name)))::int;
SELECT 'queue_trace_filter(jsonb)'::regprocedure;
-- The trace filter is PL/pgSQL, whose plan a session keeps.
SELECT 1 / (SELECT count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
            WHERE p.oid = 'queue_trace_filter(jsonb)'::regprocedure
              AND l.lanname = 'plpgsql')::int;
-- Contract rows up to a page are stored uncompressed.
SELECT 1 / (SELECT count(*) FROM pg_class c
            WHERE c.oid = 'payload_contracts'::regclass
              AND 'toast_tuple_target=8160' = ANY (c.reloptions))::int;
