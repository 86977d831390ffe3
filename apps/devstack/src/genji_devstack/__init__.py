"""Genji Shimada devstack."""
