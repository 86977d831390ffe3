SELECT event_name, payload_version, fraction_screen FROM payload_contracts WHERE false;
