"""Map edit requests: a user proposes changes to a map, a moderator accepts or rejects them."""
