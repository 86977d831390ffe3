"""Operator alerts for held jobs: the supervisor that keeps one card per job in the job_alerts
channel, and the Retry job and Details controls on it."""
