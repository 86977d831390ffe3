"""The queue worker runtime shared by the bot and API processes.

claims.py      claiming (PGQueuer's dequeue) and the fenced writes that follow
manager.py     PGQueuer's QueueManager, handing its buffer of results to claims.py
executor.py    per-job policy: start gate, payload decoding, timeouts, retry/defer/hold
supervisor.py  runs PGQueuer's QueueManager, reconnects, drains and shuts down in order
"""
