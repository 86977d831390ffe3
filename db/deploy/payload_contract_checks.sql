-- What the contract table can check only once the functions of sql/payload_check.sql exist.
ALTER TABLE payload_contracts
    ADD CONSTRAINT payload_contracts_nodes_check CHECK (payload_nodes_problem(nodes) IS NULL),
    -- The contract as one jsonpath predicate, which decides most enqueues in one call.
    ADD COLUMN fast_check jsonpath GENERATED ALWAYS AS (payload_fast_check(nodes)) STORED;

-- The contracts one node per row, for reading them.
CREATE VIEW payload_contract_nodes AS
SELECT c.event_name, c.payload_version, n.*
FROM payload_contracts c CROSS JOIN LATERAL unnest(c.nodes) n;
