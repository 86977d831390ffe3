"""XP totals, the grant ledger and the api.xp.grant job of each grant."""
