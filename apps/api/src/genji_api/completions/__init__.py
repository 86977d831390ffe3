"""Completion submission, verification verdicts, upvotes and the bot's completion reads."""
