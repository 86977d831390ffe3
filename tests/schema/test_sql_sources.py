"""The functions the migrations deployed are exactly the sources in sql/."""

import re
from pathlib import Path

import pytest

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

SQL_DIR = Path(__file__).resolve().parents[2] / "sql"
DECLARED = re.compile(r"CREATE (?:OR REPLACE )?FUNCTION (\w+)\(", re.IGNORECASE)
DEFINITIONS = """
SELECT p.oid::regprocedure::text AS signature, pg_get_functiondef(p.oid) AS body
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'public' AND p.proname <> 'fn_pgqueuer_changed'
ORDER BY 1
"""


async def test_deployed_functions_equal_the_sql_sources(connect: Connect) -> None:
    conn = await connect()
    deployed = {r["signature"]: r["body"] for r in await conn.fetch(DEFINITIONS)}
    for source in sorted(SQL_DIR.glob("*.sql")):
        await conn.execute(source.read_text())
    from_sources = {r["signature"]: r["body"] for r in await conn.fetch(DEFINITIONS)}
    assert deployed == from_sources, "sql/ changed without a plan change that deploys it"


async def test_every_deployed_function_has_a_source_file(connect: Connect) -> None:
    conn = await connect()
    declared = {name for f in SQL_DIR.glob("*.sql") for name in DECLARED.findall(f.read_text())}
    deployed = {r["signature"].split("(")[0] for r in await conn.fetch(DEFINITIONS)}
    assert deployed == declared
