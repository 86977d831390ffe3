-- The verification-queue message of a tournament run sent to manual review: written with the
-- bot's send binding, so the card is found again after a restart.

ALTER TABLE tournaments.completions ADD COLUMN verification_message_id bigint;
