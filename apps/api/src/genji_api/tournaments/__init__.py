"""Weekly tournaments."""
