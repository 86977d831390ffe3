"""A change reworked after a tag deploys, reverts and upgrades with yoyo and with real Sqitch."""

from pathlib import Path

import psycopg
import pytest
from genji_api.migrate import apply_plan, rollback_plan
from genji_api.migrations.plan import PlanError, read_plan
from genji_devstack.schema_dump import dump_schema

from .rework_project import (
    PLAN,
    PLANNER,
    V1,
    V2,
    released_project,
    rework_widget_version,
    reworked_project,
    write_scripts,
)
from .sqitch_cli import sqitch

pytestmark = pytest.mark.queue

KEYS = ["widgets", "widget_version", "widget_version+v1"]


def _version(dsn: str) -> int | None:
    with psycopg.connect(dsn) as conn:
        found = conn.execute("SELECT to_regprocedure('widget_version()') IS NOT NULL").fetchone()
        if not (found and found[0]):
            return None
        row = conn.execute("SELECT widget_version()").fetchone()
        assert row is not None
        return int(row[0])


def test_reader_gives_each_instance_a_key_scripts_and_release(tmp_path: Path) -> None:
    plan = read_plan(reworked_project(tmp_path))
    assert [c.key for c in plan.changes] == KEYS
    assert [c.script for c in plan.changes] == ["widgets", "widget_version@v1", "widget_version"]
    assert [c.tag for c in plan.changes] == ["v1", "v1", None]
    assert plan.changes[2].requires == ("widget_version",)
    assert (tmp_path / "db" / "deploy" / "widget_version@v1.sql").read_text() == V1
    assert (tmp_path / "db" / "deploy" / "widget_version.sql").read_text() == V2


def test_reader_finds_the_scripts_sqitch_names_after_the_latest_tag(tmp_path: Path) -> None:
    directory = released_project(tmp_path)
    write_scripts(directory, "gadgets", "SELECT 1;\n", "SELECT 1;\n", "SELECT 1;\n")
    with (directory / "sqitch.plan").open("a") as plan:
        plan.write(f"gadgets 2026-01-02T00:00:00Z {PLANNER} # Another change\n")
        plan.write(f"@v2 2026-01-02T00:01:00Z {PLANNER} # Second release\n")
    rework_widget_version(directory)
    released = read_plan(directory).changes[1]
    assert (released.key, released.script, released.tag) == (
        "widget_version",
        "widget_version@v2",
        "v1",
    )
    assert read_plan(directory).changes[-1].key == "widget_version+v2"


def test_reader_rejects_a_rework_without_an_intervening_tag(tmp_path: Path) -> None:
    directory = released_project(tmp_path)
    plan = directory / "sqitch.plan"
    untagged = PLAN.replace("@v1 ", "# @v1 ")
    plan.write_text(untagged + "widget_version 2026-01-01T00:03:00Z Dev <d@e.invalid> # again\n")
    with pytest.raises(PlanError, match="without an intervening tag"):
        read_plan(directory)


def test_yoyo_deploys_and_reverts_a_reworked_change(tmp_path: Path, empty_database: str) -> None:
    directory = reworked_project(tmp_path)
    never_migrated = dump_schema(empty_database)
    assert apply_plan(empty_database, directory=directory) == KEYS
    assert _version(empty_database) == 2
    assert rollback_plan(empty_database, 1, directory=directory) == ["widget_version+v1"]
    assert _version(empty_database) == 1
    assert rollback_plan(empty_database, 2, directory=directory) == KEYS[1::-1]
    assert dump_schema(empty_database) == never_migrated
    assert apply_plan(empty_database, directory=directory) == KEYS


def test_yoyo_upgrades_a_released_database_to_the_rework(
    tmp_path: Path, empty_database: str
) -> None:
    directory = released_project(tmp_path)
    assert apply_plan(empty_database, directory=directory) == KEYS[:2]
    rework_widget_version(directory)
    applied = apply_plan(empty_database, directory=directory)
    assert _version(empty_database) == 2
    # The released instance keeps its key, so only the rework is new.
    assert applied == ["widget_version+v1"]


def test_sqitch_deploys_reverts_and_upgrades_a_reworked_change(
    tmp_path: Path, empty_database: str
) -> None:
    directory = released_project(tmp_path)
    never_migrated = dump_schema(empty_database)
    sqitch(directory, "deploy", "--verify", dsn=empty_database)
    assert _version(empty_database) == 1
    rework_widget_version(directory)
    assert "+ widget_version .." in sqitch(directory, "deploy", "--verify", dsn=empty_database)
    assert _version(empty_database) == 2
    sqitch(directory, "verify", dsn=empty_database)
    reworked = dump_schema(empty_database)

    sqitch(directory, "revert", "-y", "--to", "@v1", dsn=empty_database)
    assert _version(empty_database) == 1
    sqitch(directory, "revert", "-y", dsn=empty_database)
    assert dump_schema(empty_database) == never_migrated
    sqitch(directory, "deploy", "--verify", dsn=empty_database)
    assert dump_schema(empty_database) == reworked


def test_sqitch_and_yoyo_give_the_same_reworked_schema(tmp_path: Path, empty_database: str) -> None:
    directory = reworked_project(tmp_path)
    sqitch(directory, "deploy", "--verify", dsn=empty_database)
    by_sqitch = dump_schema(empty_database)
    sqitch(directory, "revert", "-y", dsn=empty_database)
    apply_plan(empty_database, directory=directory)
    assert dump_schema(empty_database) == by_sqitch
