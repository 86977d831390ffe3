"""The API worker: the three API-owned entrypoints and the tournament schedule."""
