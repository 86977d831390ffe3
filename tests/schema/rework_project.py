"""A small Sqitch project with a function reworked after its first release, for plan tests.

`widget_version()` returns 1 as released with @v1 and 2 after its rework, which also adds
`widget_count()`. The rework is made by the real `sqitch rework`, so the tests read the plan
line and script names Sqitch itself writes.
"""

from __future__ import annotations

from pathlib import Path

from .sqitch_cli import sqitch

PLANNER = "Dev <dev@example.invalid>"
V1 = "CREATE OR REPLACE FUNCTION widget_version() RETURNS integer LANGUAGE sql AS 'SELECT 1';\n"
V2 = V1.replace("SELECT 1", "SELECT 2") + (
    "CREATE OR REPLACE FUNCTION widget_count() RETURNS bigint LANGUAGE sql\n"
    "    AS 'SELECT count(*) FROM widgets';\n"
)
CONF = "[core]\n\tengine = pg\n\tplan_file = sqitch.plan\n\ttop_dir = .\n"
PLAN = f"""%syntax-version=1.0.0
%project=rework_demo

widgets 2026-01-01T00:00:00Z {PLANNER} # The widget table
widget_version [widgets] 2026-01-01T00:01:00Z {PLANNER} # widget_version() returns 1
@v1 2026-01-01T00:02:00Z {PLANNER} # First release
"""


def write_scripts(directory: Path, stem: str, deploy: str, revert: str, verify: str) -> None:
    for kind, text in (("deploy", deploy), ("revert", revert), ("verify", verify)):
        (directory / kind).mkdir(exist_ok=True)
        (directory / kind / f"{stem}.sql").write_text(text)


def released_project(root: Path) -> Path:
    """The project as released with @v1: two changes, nothing reworked yet."""
    directory = root / "db"
    directory.mkdir()
    (directory / "sqitch.conf").write_text(CONF)
    (directory / "sqitch.plan").write_text(PLAN)
    write_scripts(
        directory,
        "widgets",
        "CREATE TABLE widgets (id integer PRIMARY KEY);\n",
        "DROP TABLE widgets;\n",
        "SELECT id FROM widgets WHERE false;\n",
    )
    write_scripts(
        directory,
        "widget_version",
        V1,
        "DROP FUNCTION widget_version();\n",
        "SELECT 1 / (widget_version() = 1)::int;\n",
    )
    return directory


def rework_widget_version(directory: Path) -> None:
    """`sqitch rework widget_version`, then the new instance's scripts: deploy the new text,
    revert to the released one (Sqitch's copy of the old deploy) and drop what it added."""
    sqitch(directory, "rework", "widget_version", "-n", "widget_version() returns 2")
    assert (directory / "revert" / "widget_version.sql").read_text() == V1
    write_scripts(
        directory,
        "widget_version",
        V2,
        "DROP FUNCTION widget_count();\n" + V1,
        "SELECT 1 / (widget_version() = 2)::int;\nSELECT 'widget_count()'::regprocedure;\n",
    )


def reworked_project(root: Path) -> Path:
    directory = released_project(root)
    rework_widget_version(directory)
    return directory
