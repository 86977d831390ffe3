SELECT event_name, payload_version, nodes FROM payload_contracts WHERE false;
SELECT 'payload_contract_node'::regtype;
