-- The function sources live in sql/, one concern per file. A later change to any of them is a
-- new plan change that includes the changed file again (CREATE OR REPLACE).
\ir ../../sql/wake.sql
\ir ../../sql/status.sql
\ir ../../sql/enqueue.sql
\ir ../../sql/fencing.sql
\ir ../../sql/retry.sql
\ir ../../sql/receipts.sql
\ir ../../sql/retention.sql
