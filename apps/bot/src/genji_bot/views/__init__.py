"""Persistent views: one per message with live buttons, registered once per process."""
