"""Installing a production package installs no dev tooling, and installing the API installs
neither the bot nor discord.py: read from uv.lock, the packages reachable from each one's
declared (non-dev) dependencies."""

import tomllib
from pathlib import Path
from typing import Any

import pytest

LOCK = Path(__file__).resolve().parents[2] / "uv.lock"
PRODUCTION = ["genji-sdk", "genji-queue", "genji-worker", "genji-api", "genji-bot"]
NEVER = {name: {"genji-devstack"} for name in PRODUCTION}
NEVER["genji-api"] |= {"genji-bot", "discord-py"}


def locked_packages() -> dict[str, list[dict[str, Any]]]:
    by_name: dict[str, list[dict[str, Any]]] = {}
    for package in tomllib.loads(LOCK.read_text())["package"]:
        by_name.setdefault(package["name"], []).append(package)
    return by_name


def closure(root: str) -> set[str]:
    packages = locked_packages()
    seen: set[tuple[str, str | None]] = set()
    pending: list[dict[str, Any]] = list(packages[root][0].get("dependencies", []))
    while pending:
        dependency = pending.pop()
        for package in packages[dependency["name"]]:
            if dependency.get("version", package.get("version")) != package.get("version"):
                continue
            for part in [None, *dependency.get("extra", [])]:
                if (package["name"], part) in seen:
                    continue
                seen.add((package["name"], part))
                if part is None:
                    pending += package.get("dependencies", [])
                else:
                    pending += package.get("optional-dependencies", {}).get(part, [])
    return {name for name, _ in seen}


@pytest.mark.parametrize("package", PRODUCTION)
def test_production_dependency_closure_leaves_out_dev_tooling(package: str) -> None:
    assert closure(package) & NEVER[package] == set()


def test_the_closure_follows_dependencies_and_extras() -> None:
    reached = closure("genji-api")
    assert {"genji-worker", "pgqueuer", "litestar", "psycopg-binary"} <= reached
    assert "discord-py" in closure("genji-bot")
