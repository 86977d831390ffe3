"""The API process's /metrics endpoint: queue-wide gauges read from the database on a schedule,
beside the series of the API worker running in the same process (genji_worker.metrics)."""
