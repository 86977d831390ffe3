"""The names a screenshot may show for a user, as the OCR service expects them."""

from __future__ import annotations

import asyncpg

from genji_api.ocr.rows import ShownName
from genji_api.rows import rows_as


async def user_names(conn: asyncpg.Connection, user_id: int) -> list[str]:
    """Every Overwatch name of the user (primary first), then nickname and global name.

    Upper-cased and without duplicates, in that order.
    """
    rows = await conn.fetch(
        """
        SELECT upper(username) AS name, 0 AS rank, NOT is_primary AS secondary, id
        FROM users.overwatch_usernames WHERE user_id = $1
        UNION ALL
        SELECT upper(nickname), 1, false, 0 FROM core.users WHERE id = $1
        UNION ALL
        SELECT upper(global_name), 2, false, 0 FROM core.users
        WHERE id = $1 AND global_name IS NOT NULL
        ORDER BY rank, secondary, id
        """,
        user_id,
    )
    return list(dict.fromkeys(row.name for row in rows_as(ShownName, rows)))
