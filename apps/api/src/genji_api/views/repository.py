"""One read across the three tables that hold a message with live buttons.

A record without a message id (the card or thread was not posted yet) is left out: its creation
handler registers the view once the message exists. One statement, so the three lists come from
one snapshot.
"""

from __future__ import annotations

import asyncpg
from genji_sdk.views import OpenView

from genji_api.rows import rows_as

OPEN_VIEWS = """
SELECT 'completion.verification' AS kind, c.id::bigint AS entity_id,
       c.verification_id AS message_id
FROM core.completions c
WHERE NOT c.verified AND c.verified_by IS NULL AND c.verification_id > 0
UNION ALL
SELECT 'playtest.thread', m.id::bigint, m.thread_id
FROM playtests.meta m
WHERE NOT m.completed AND m.thread_id > 0
UNION ALL
SELECT 'map_edit.verification', e.id::bigint, e.message_id
FROM maps.edit_requests e
WHERE e.accepted IS NULL AND e.message_id > 0
ORDER BY kind, entity_id
"""


async def open_views(conn: asyncpg.Connection) -> list[OpenView]:
    return rows_as(OpenView, await conn.fetch(OPEN_VIEWS))
