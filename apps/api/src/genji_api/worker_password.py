"""`python -m genji_api.worker_password`: give the queue worker login its deployment password.

Runs as the owner (DATABASE_URL, the API's identity; its CREATEROLE allows it) after the
migrations, with the password in QUEUE_DATABASE_PASSWORD. The password is hashed here
(SCRAM-SHA-256, by libpq) and only its verifier is sent, so a server that logs statements never
records the password itself. Exits 2 without a password or an owner login.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

import psycopg
from genji_sdk.roles import WORKER_ROLE
from psycopg import sql


def set_worker_password(owner_dsn: str, password: str) -> None:
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        verifier = conn.pgconn.encrypt_password(
            password.encode(), WORKER_ROLE.encode(), b"scram-sha-256"
        )
        conn.execute(
            sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                sql.Identifier(WORKER_ROLE), sql.Literal(verifier.decode())
            )
        )


def main(environ: Mapping[str, str] = os.environ) -> int:
    dsn, password = environ.get("DATABASE_URL"), environ.get("QUEUE_DATABASE_PASSWORD")
    if not dsn or not password:
        print(
            "error: DATABASE_URL (the owner) and QUEUE_DATABASE_PASSWORD are required",
            file=sys.stderr,
        )
        return 2
    set_worker_password(dsn, password)
    print(f"{WORKER_ROLE} has its password")
    return 0


if __name__ == "__main__":
    sys.exit(main())
