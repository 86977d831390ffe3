"""Maps: creation, sending to playtest and archiving."""
