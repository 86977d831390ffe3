"""Lootbox keys and XP rank tiers (the rewards of an api.xp.grant)."""
