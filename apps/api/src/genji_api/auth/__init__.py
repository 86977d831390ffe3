"""API-key authentication: hashed keys, scopes and the guard that checks them."""
