"""`just up`: PostgreSQL (a private durable cluster unless DATABASE_URL is set), migrations, seed
data, and the stack's children under a supervisor: the fake OCR service and, without
DISCORD_TOKEN, a loopback stand-in of Discord; the API with its worker; then the real bot.

- `stack`: start to stop, in order; `database`: the cluster or DATABASE_URL (one line within a
  connect timeout when it cannot be used), migrations, seeds and keys; `supervisor` and
  `children`: start, readiness, restart policy, stop; `signals`: a first SIGINT/SIGTERM drains,
  a second stops now; `terminal`: Ctrl-C for the stack alone; `output`: the block to paste;
  `rundir` and `watchdog`: what a killed stack leaves is stopped and removed.
"""
