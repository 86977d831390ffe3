"""Effect receipts for mutations a queue handler asks for: a replay gets the recorded result."""
