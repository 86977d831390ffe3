"""Map services: each owns one transaction."""

from __future__ import annotations

from genji_api.database import Database
from genji_api.http.tracing import Trace
from genji_api.maps.creation import MapCreated, create_map
from genji_api.maps.models import MapCreateRequest


async def submit_map(database: Database, request: MapCreateRequest, *, trace: Trace) -> MapCreated:
    return await database.transaction(lambda conn: create_map(conn, request, trace=trace))
