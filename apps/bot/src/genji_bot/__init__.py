"""Genji Shimada bot."""
