"""Names the API suite's fixtures and helpers share: the key factory's type, the bot's user."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

MakeKey = Callable[..., Awaitable[str]]

BOT_USER_ID = 10**18
