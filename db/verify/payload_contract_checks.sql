SELECT event_name, payload_version, fast_check FROM payload_contracts WHERE false;
SELECT node, parent, role, field_name, required, json_types FROM payload_contract_nodes WHERE false;
