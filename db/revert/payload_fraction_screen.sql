ALTER TABLE payload_contracts DROP COLUMN fraction_screen;
