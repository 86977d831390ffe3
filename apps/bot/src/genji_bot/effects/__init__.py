"""What the bot does outside the database: the Discord port, replay-safe sends, checkpoints."""
