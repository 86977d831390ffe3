-- Pruning deletes dashboard statistics older than the retention on every batch: without an
-- index on created that is a scan of every row the dashboard ever aggregated.
CREATE INDEX pgqueuer_statistics_created ON pgqueuer_statistics (created);
