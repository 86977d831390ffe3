DROP TABLE payload_contracts;
DROP TYPE payload_contract_node;
