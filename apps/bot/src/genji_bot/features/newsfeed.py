"""Queue consumers of the newsfeed feature."""
