"""Replay-safe effects: receipts for database mutations performed on behalf of a job."""
