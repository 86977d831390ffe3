SELECT 1/count(*) FROM pg_indexes WHERE indexname = 'pgqueuer_statistics_created';
