"""API feature code reads typed rows, never a database record by column name.

Row modules (`repository.py`, `<name>_repository.py` and `rows.py` in a feature package under
genji_api/<feature>/)
own the SQL and turn each asyncpg record into a frozen dataclass at the boundary
(`genji_api.rows`). Everywhere else in a feature package this test fails on:

1. an annotation that mentions `Record`: records do not cross into services or routes;
2. in a row module, a public function whose return annotation mentions `Record` or `Any`: a
   repository hands out typed rows;
3. a string-literal subscript `x["column"]` where `x` is visibly a record in its function:
   bound from `await ....fetch(...)` or `await ....fetchrow(...)` (also wrapped in `list(...)`),
   a loop or comprehension target over such a name or such an await, or a parameter annotated
   with `Any` or `Record` (alone or as a container's element). Loop targets over those
   parameters count too.

Rule 3 leaves JSON work alone: a dict from `json.loads`, a dict literal, msgspec, or a
parameter annotated `dict[...]`/`Mapping[...]` is never one of those names. It cannot follow a
record through an unannotated local that came from another function, but mypy strict puts a
type on every function boundary, and rules 1 and 2 keep `Record` and `Any` off those.

Modules not converted yet are listed in NOT_YET_CONVERTED, which may only shrink.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "apps" / "api" / "src" / "genji_api"
ROW_MODULES = {"repository.py", "rows.py"}
FETCHES = {"fetch", "fetchrow"}

NOT_YET_CONVERTED: set[str] = set()


def _feature_modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.glob("*/**/*.py")):
        yield path.relative_to(PACKAGE).as_posix(), path


def _mentions(node: ast.AST | None, names: set[str]) -> bool:
    if node is None:
        return False
    return any(
        (isinstance(sub, ast.Name) and sub.id in names)
        or (isinstance(sub, ast.Attribute) and sub.attr in names)
        or (isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value in names)
        for sub in ast.walk(node)
    )


def _annotations(tree: ast.AST) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            yield node.annotation
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
            yield node.returns


def _is_fetch(node: ast.expr) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list":
        return bool(node.args) and _is_fetch(node.args[0])
    return (
        isinstance(node, ast.Await)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr in FETCHES
    )


def _targets(target: ast.expr) -> set[str]:
    return {sub.id for sub in ast.walk(target) if isinstance(sub, ast.Name)}


def _record_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    names = {
        arg.arg
        for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
        if _mentions(arg.annotation, {"Any", "Record"})
    }
    # Two passes: a loop over a name bound later in the source still counts.
    for _ in range(2):
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and _is_fetch(node.value):
                for target in node.targets:
                    names |= _targets(target)
            elif isinstance(node, ast.AnnAssign) and node.value and _is_fetch(node.value):
                names |= _targets(node.target)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                source = node.iter
                if _is_fetch(source) or (isinstance(source, ast.Name) and source.id in names):
                    names |= _targets(node.target)
    return names


def _problems(name: str, tree: ast.Module) -> Iterator[str]:
    base = Path(name).name
    row_module = base in ROW_MODULES or base.endswith("_repository.py")
    if not row_module:
        for annotation in _annotations(tree):
            if _mentions(annotation, {"Record"}):
                yield f"{name}:{annotation.lineno}: Record in an annotation"
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if row_module:
            if not node.name.startswith("_") and _mentions(node.returns, {"Any", "Record"}):
                yield f"{name}:{node.lineno}: {node.name} returns a record, not a typed row"
            continue
        records = _record_names(node)
        for sub in ast.walk(node):
            if (
                isinstance(sub, ast.Subscript)
                and isinstance(sub.value, ast.Name)
                and sub.value.id in records
                and isinstance(sub.slice, ast.Constant)
                and isinstance(sub.slice.value, str)
            ):
                yield f'{name}:{sub.lineno}: {sub.value.id}["{sub.slice.value}"] reads a record'


def _findings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, path in _feature_modules():
        problems = sorted(set(_problems(name, ast.parse(path.read_text(), name))))
        if problems:
            found[name] = problems
    return found


def test_feature_code_reads_typed_rows() -> None:
    found = _findings()
    unexpected = {name: lines for name, lines in found.items() if name not in NOT_YET_CONVERTED}
    assert not unexpected, "\n".join(line for lines in unexpected.values() for line in lines)


def test_not_yet_converted_list_only_names_modules_that_still_need_it() -> None:
    stale = NOT_YET_CONVERTED - set(_findings())
    assert not stale, f"converted, remove from NOT_YET_CONVERTED: {sorted(stale)}"
