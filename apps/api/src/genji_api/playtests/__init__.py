"""Playtests: thread binding, votes and the transitions that close or reset a playtest."""
