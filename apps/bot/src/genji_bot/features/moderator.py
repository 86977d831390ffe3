"""Queue consumers of the moderator feature."""
