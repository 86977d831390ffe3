"""Queue consumers of the playtest feature."""
