"""No production package imports the dev tooling, the tests or the benchmarks, at module level
or inside a function. The benchmarks import their helpers by bare name, and the tests' helpers
once were, so those names count as theirs too. Among the production packages, imports follow
the package graph (docs/architecture.md): the API and the bot meet only in genji_sdk."""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "genji_sdk": ROOT / "apps/sdk/src/genji_sdk",
    "genji_queue": ROOT / "apps/queue/src/genji_queue",
    "genji_worker": ROOT / "apps/worker/src/genji_worker",
    "genji_api": ROOT / "apps/api/src/genji_api",
    "genji_bot": ROOT / "apps/bot/src/genji_bot",
}
DEV_ONLY = {"genji_devstack", "tests", "bench"} | {
    path.stem
    for folder in ("tests", "bench")
    for path in (ROOT / folder).rglob("*.py")
    if not path.name.startswith("test_") and path.stem not in {"conftest", "__init__"}
}
DYNAMIC_IMPORTERS = {"import_module", "__import__"}


def module_name(package: str, path: Path) -> str:
    parts = path.relative_to(PRODUCTION[package].parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Call) and node.args:
            func, first = node.func, node.args[0]
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in DYNAMIC_IMPORTERS and isinstance(first, ast.Constant):
                if isinstance(first.value, str):
                    yield node.lineno, first.value


# The production packages each one may import besides itself.
MAY_IMPORT = {
    "genji_sdk": set(),
    "genji_queue": {"genji_sdk"},
    "genji_worker": {"genji_sdk", "genji_queue"},
    "genji_api": {"genji_sdk", "genji_queue", "genji_worker"},
    "genji_bot": {"genji_sdk", "genji_queue", "genji_worker"},
}


def dev_imports(package: str) -> list[str]:
    found = []
    for path in sorted(PRODUCTION[package].rglob("*.py")):
        module = module_name(package, path)
        for line, name in imported(ast.parse(path.read_text(), str(path))):
            top = name.split(".")[0]
            if top in DEV_ONLY:
                found.append(f"{module}:{line} imports {name}")
            elif top in PRODUCTION and top != package and top not in MAY_IMPORT[package]:
                found.append(f"{module}:{line} imports {name}, against the package graph")
    return found


@pytest.mark.parametrize("package", sorted(PRODUCTION))
def test_production_package_imports_no_dev_tooling(package: str) -> None:
    assert list(PRODUCTION[package].rglob("*.py")), f"{package} has no modules under its path"
    found = dev_imports(package)
    assert not found, "\n".join(found)


def test_the_walk_sees_imports_inside_functions() -> None:
    source = "def f():\n    from genji_devstack.cluster import PgCluster\n"
    assert list(imported(ast.parse(source))) == [(2, "genji_devstack.cluster")]
