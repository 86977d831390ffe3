"""Queue consumers of the completions feature."""
