-- The times stay: before this change finished_at was read only for summarized jobs.
SELECT 1;
