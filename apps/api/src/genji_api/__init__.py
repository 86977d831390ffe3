"""Genji Shimada api."""
