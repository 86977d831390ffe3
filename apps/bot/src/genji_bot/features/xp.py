"""Queue consumers of the xp feature."""
