"""Map guides: one per user per map; a new guide earns Guide XP and a newsfeed entry."""
