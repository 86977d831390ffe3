DROP VIEW payload_contract_nodes;
ALTER TABLE payload_contracts DROP COLUMN fast_check, DROP CONSTRAINT payload_contracts_nodes_check;
