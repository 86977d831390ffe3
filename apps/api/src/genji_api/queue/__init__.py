"""Producing jobs in the caller's business transaction (status is read with genji_queue.status)."""
