"""Map mastery: a user's level per map name, from their verified runs on its official maps."""
