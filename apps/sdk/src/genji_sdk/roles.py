"""The database logins the queue is built around; code that names one imports it from here.

The migration scripts in db/ spell the worker role out in SQL; the schema tests check that
the role they create is this one.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import quote, urlsplit, urlunsplit

# Owns the application database and every object in it; the migration plan runs as this role.
# It is no superuser: LOGIN and CREATEROLE (to manage the worker login's password) only.
OWNER_ROLE: Final = "genjishimada"
# The bot's queue-only login, created by the migration plan without a password.
WORKER_ROLE: Final = "genjishimada_queue_worker"


def login_dsn(dsn: str, user: str, password: str | None) -> str:
    """`dsn`'s servers and database, logged in as `user` with `password` (if any).

    The host part is kept as written, so a multi-host list (h1:p1,h2:p2) stays one.
    """
    parts = urlsplit(dsn)
    auth = quote(user, safe="") + (f":{quote(password, safe='')}" if password else "")
    netloc = f"{auth}@{parts.netloc.rpartition('@')[2]}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
