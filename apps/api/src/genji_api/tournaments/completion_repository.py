"""SQL on a tournament run's own columns that the bot's sends mirror; never commits."""

from __future__ import annotations

import asyncpg

from genji_api.effects.mirrors import SentIds


async def write_verification_message(
    conn: asyncpg.Connection, tournament_completion_id: int, sent: SentIds
) -> None:
    """The mirror of the review card's send, written with the binding."""
    await conn.execute(
        "UPDATE tournaments.completions SET verification_message_id = $2 WHERE id = $1",
        tournament_completion_id,
        sent.message_id,
    )
