"""Links between an official map and its unofficial counterpart, and their announcement."""
