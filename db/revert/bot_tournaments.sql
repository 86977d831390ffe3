ALTER TABLE tournaments.completions DROP COLUMN verification_message_id;
