"""Queue consumers of the notifications feature."""
