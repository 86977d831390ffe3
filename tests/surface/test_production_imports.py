"""No production package imports the dev tooling, the tests or the benchmarks, at module level
or inside a function. The tests and benchmarks also import their helpers by bare name (they are
on sys.path), so those names count as theirs too."""

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
ALLOWED = {"genji_api.local_stack"}
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


def dev_imports(package: str) -> list[str]:
    found = []
    for path in sorted(PRODUCTION[package].rglob("*.py")):
        module = module_name(package, path)
        if module in ALLOWED:
            continue
        for line, name in imported(ast.parse(path.read_text(), str(path))):
            if name.split(".")[0] in DEV_ONLY:
                found.append(f"{module}:{line} imports {name}")
    return found


@pytest.mark.parametrize("package", sorted(PRODUCTION))
def test_production_package_imports_no_dev_tooling(package: str) -> None:
    assert list(PRODUCTION[package].rglob("*.py")), f"{package} has no modules under its path"
    found = dev_imports(package)
    assert not found, "\n".join(found)


def test_the_walk_sees_imports_inside_functions() -> None:
    source = "def f():\n    from genji_devstack.cluster import PgCluster\n"
    assert list(imported(ast.parse(source))) == [(2, "genji_devstack.cluster")]
