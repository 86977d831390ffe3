"""Queue consumers of the tournaments feature."""
