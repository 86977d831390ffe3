"""Weekly tournaments: editions and cycles, submissions and verdicts, the outbox and rewards."""
