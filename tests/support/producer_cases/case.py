"""One producer: the rows it needs, the operation, and the jobs a success enqueues."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx
from genji_api.database import Database
from genji_api.settings import ApiSettings


@dataclass
class ProducerEnv:
    api: httpx.AsyncClient
    """Authenticated with a superuser key."""
    owner: asyncpg.Connection
    """Seeds rows and inspects commits; never shares a transaction with the operation."""
    database: Database
    """A pool on the test database, for producers run by the API worker rather than a route."""
    settings: ApiSettings


@dataclass(frozen=True)
class ProducerCase:
    name: str
    events: frozenset[str]
    """Events a successful run enqueues (all of them, each at least once)."""
    setup: Callable[[ProducerEnv], Awaitable[Any]]
    """Seeds what the operation needs; its result is handed to `act`."""
    act: Callable[[ProducerEnv, Any], Awaitable[httpx.Response | None]]
    """Runs the operation: an HTTP request (its response), or a service call (None)."""
    ok: int = 201
    """The success status of an HTTP operation."""
