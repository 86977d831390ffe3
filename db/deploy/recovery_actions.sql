-- The transaction that recorded a recovery action: the queue's held-row guard lets a held row
-- move only in the transaction of an accepted action.
ALTER TABLE job_actions ADD COLUMN xact_id xid8 NOT NULL DEFAULT pg_current_xact_id();
