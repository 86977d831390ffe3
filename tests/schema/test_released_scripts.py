"""db/released freezes every file a tag released; `just release-plan` only ever appends to it."""

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from genji_api.migrations.location import db_dir
from genji_devstack.release_plan import MANIFEST, check, release

from .rework_project import PLANNER, V2, released_project, rework_widget_version, write_scripts

pytestmark = pytest.mark.queue

DB = db_dir()


def test_released_files_are_unchanged_and_all_pinned() -> None:
    assert check(DB) == []


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The rework project with db/released written for @v1, and an empty sql/ beside it."""
    directory = released_project(tmp_path)
    (tmp_path / "sql").mkdir()
    assert release(directory, tmp_path / "sql", retag_unreleased=False) == (
        ["@v1: wrote 7 lines"],
        [],
    )
    assert check(directory) == []
    return directory


def _add_release(directory: Path, change: str, tag: str) -> None:
    write_scripts(directory, change, f"-- {change}\n", f"-- undo {change}\n", "SELECT 1;\n")
    with (directory / "sqitch.plan").open("a") as plan:
        plan.write(f"{change} 2026-02-01T00:00:00Z {PLANNER} # Later\n")
        plan.write(f"@{tag} 2026-02-01T00:01:00Z {PLANNER} # Later release\n")


def test_a_changed_released_script_is_reported_and_never_rewritten(project: Path) -> None:
    manifest = (project / MANIFEST).read_bytes()
    (project / "deploy" / "widget_version.sql").write_text(V2)
    assert check(project) == ["@v1 deploy/widget_version.sql: released text changed"]
    refusals = release(project, project.parent / "sql", retag_unreleased=False)[1]
    assert refusals == ["@v1 deploy/widget_version.sql: released text changed"]
    assert (project / MANIFEST).read_bytes() == manifest


def test_a_change_added_before_the_tag_must_be_pinned(project: Path) -> None:
    plan = project / "sqitch.plan"
    plan.write_text(
        plan.read_text().replace("@v1 ", f"gadgets 2026-01-01T00:01:30Z {PLANNER} # More\n@v1 ")
    )
    write_scripts(project, "gadgets", "-- gadgets\n", "-- none\n", "SELECT 1;\n")
    assert sorted(check(project)) == [
        "@v1 deploy/gadgets.sql: missing from db/released",
        "@v1 revert/gadgets.sql: missing from db/released",
        "@v1 sqitch.plan: released text changed",
        "@v1 verify/gadgets.sql: missing from db/released",
    ]


def _drop_line(text: str, containing: str) -> str:
    return "".join(line for line in text.splitlines(True) if containing not in line)


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda t: t.replace(" 0", " 1", 1), "released text changed"),
        (lambda t: t.replace("revert/widgets.sql", "revert/widgetz.sql"), "missing from"),
        (lambda t: _drop_line(t, "verify/widgets.sql"), "missing from"),
        (lambda t: _drop_line(t, "sqitch.plan"), "missing from"),
        (lambda t: t.replace("@v1 ", "@v0 ", 1), "not the plan's tags"),
    ],
    ids=["digest-altered", "path-altered", "line-removed", "plan-line-removed", "tag-altered"],
)
def test_an_altered_or_removed_manifest_line_is_reported(
    project: Path, edit: Callable[[str], str], problem: str
) -> None:
    manifest = project / MANIFEST
    altered = edit(manifest.read_text())
    assert altered != manifest.read_text()
    manifest.write_text(altered)
    problems = check(project)
    assert any(problem in p for p in problems), problems


def test_a_new_tag_is_appended_and_earlier_lines_stay_byte_for_byte(project: Path) -> None:
    before = (project / MANIFEST).read_text()
    _add_release(project, "gadgets", "v2")
    assert check(project) == ["@v2: no lines in db/released (run `just release-plan`)"]
    assert release(project, project.parent / "sql", retag_unreleased=False)[1] == []
    after = (project / MANIFEST).read_text()
    assert after.startswith(before) and after.count("\n@v2 ") == 4
    assert check(project) == []


def test_retagging_rewrites_only_the_last_tag(project: Path) -> None:
    _add_release(project, "gadgets", "v2")
    release(project, project.parent / "sql", retag_unreleased=False)
    v1_lines = [line for line in (project / MANIFEST).read_text().splitlines() if "@v1 " in line]
    (project / "deploy" / "gadgets.sql").write_text("-- gadgets, revised before release\n")
    assert release(project, project.parent / "sql", retag_unreleased=False)[1] != []
    assert release(project, project.parent / "sql", retag_unreleased=True)[1] == []
    assert check(project) == []
    kept = [line for line in (project / MANIFEST).read_text().splitlines() if "@v1 " in line]
    assert kept == v1_lines

    (project / "deploy" / "widgets.sql").write_text("-- released with v1, edited\n")
    assert release(project, project.parent / "sql", retag_unreleased=True)[1] == [
        "@v1 deploy/widgets.sql: released text changed"
    ]


def test_a_rework_keeps_the_released_lines_valid(project: Path) -> None:
    rework_widget_version(project)
    assert check(project) == []
    with (project / "sqitch.plan").open("a") as plan:
        plan.write(f"@v2 2026-02-01T00:01:00Z {PLANNER} # The rework\n")
    release(project, project.parent / "sql", retag_unreleased=False)
    assert check(project) == []
    assert f"@v2 {_sha(V2)} deploy/widget_version.sql" in (project / MANIFEST).read_text()


def test_sources_are_copied_into_unreleased_changes_only(project: Path) -> None:
    sql = project.parent / "sql"
    (sql / "widget_version.sql").write_text(V2)
    notes, _ = release(project, sql, retag_unreleased=False)
    deploy = project / "deploy" / "widget_version.sql"
    assert notes == [f"{sql / 'widget_version.sql'} differs from released {deploy}: rework it"]
    assert release(project, sql, retag_unreleased=True)[1] == []
    assert (project / "deploy" / "widget_version.sql").read_text() == V2
    assert check(project) == []


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
