"""A user's skill rank: the hardest difficulty band of an official map they have a verified run
on. It stands in for the skill scores (outside this system); the bot mirrors it as one role."""

from __future__ import annotations

import asyncpg

from genji_api.database import Database
from genji_api.errors import NotFoundError
from genji_api.rows import rows_as
from genji_api.users.models import SkillRankResponse
from genji_api.users.repository import PlayedDifficulty

UNRANKED = "Ninja"
# Difficulty band (the label without its +/-) -> rank, easiest first.
RANKS: tuple[tuple[str, str], ...] = (
    ("Easy", "Jumper"),
    ("Medium", "Skilled"),
    ("Hard", "Pro"),
    ("Very Hard", "Master"),
    ("Extreme", "Grandmaster"),
    ("Hell", "God"),
)
_BANDS = [band for band, _ in RANKS]


def rank_of(difficulties: list[str]) -> str:
    bands = {label.removesuffix(" +").removesuffix(" -") for label in difficulties}
    best = max((_BANDS.index(b) for b in bands if b in _BANDS), default=None)
    return UNRANKED if best is None else RANKS[best][1]


async def _difficulties(conn: asyncpg.Connection, user_id: int) -> list[str] | None:
    if not await conn.fetchval("SELECT true FROM core.users WHERE id = $1", user_id):
        return None
    rows = await conn.fetch(
        "SELECT DISTINCT m.difficulty FROM core.completions c JOIN core.maps m ON m.id = c.map_id "
        "WHERE c.user_id = $1 AND c.verified AND m.official AND m.difficulty IS NOT NULL",
        user_id,
    )
    return [row.difficulty for row in rows_as(PlayedDifficulty, rows)]


async def get_rank(database: Database, user_id: int) -> SkillRankResponse:
    difficulties = await database.read(lambda conn: _difficulties(conn, user_id))
    if difficulties is None:
        raise NotFoundError(f"No user found with id: {user_id}")
    rank = rank_of(difficulties)
    return SkillRankResponse(user_id=user_id, rank=rank, ranked=rank != UNRANKED)
