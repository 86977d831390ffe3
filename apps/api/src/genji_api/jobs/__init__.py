"""Public job status: the one reader of the SQL status projection for HTTP clients."""
