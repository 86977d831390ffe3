-- The function sources live in sql/, one transition or concern per file.
\ir ../../sql/wake.sql
\ir ../../sql/summaries.sql
\ir ../../sql/status.sql
\ir ../../sql/enqueue.sql
\ir ../../sql/claim.sql
\ir ../../sql/begin.sql
\ir ../../sql/complete.sql
\ir ../../sql/heartbeat.sql
\ir ../../sql/release.sql
\ir ../../sql/retry.sql
\ir ../../sql/hold.sql
\ir ../../sql/receipts.sql
\ir ../../sql/retention.sql
\ir ../../sql/workers.sql
\ir ../../sql/metrics.sql
