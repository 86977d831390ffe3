"""`genji-jobs` refused or missing the owner's password says where the password comes from:
PGPASSFILE, which `just up` exports for its own cluster."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.testdb import Database

from .cli_process import genji_jobs

pytestmark = pytest.mark.queue


def _without_password(dsn: str) -> str:
    return re.sub(r"//([^:@/]+):[^@]*@", r"//\1@", dsn)


async def test_a_refused_password_names_pgpassfile(db: Database, tmp_path: Path) -> None:
    passfile = tmp_path / "pgpass"
    passfile.write_text("*:*:*:*:not-the-password\n")
    passfile.chmod(0o600)
    refused = await genji_jobs(
        replace(db, dsn=_without_password(db.dsn)), "list", PGPASSFILE=str(passfile)
    )
    assert refused.code == 5, refused.stderr
    assert "password" in refused.stderr and "PGPASSFILE" in refused.stderr, refused.stderr
    assert "not-the-password" not in refused.stderr


async def test_no_password_at_all_names_pgpassfile(db: Database, tmp_path: Path) -> None:
    missing = await genji_jobs(
        replace(db, dsn=_without_password(db.dsn)),
        "list",
        PGPASSFILE=str(tmp_path / "none"),
        HOME=str(tmp_path),
    )
    assert missing.code == 5, missing.stderr
    assert "PGPASSFILE" in missing.stderr, missing.stderr
