DELETE FROM payload_contracts;
