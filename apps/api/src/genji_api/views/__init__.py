"""The messages whose persistent views the bot restores at start-up."""
