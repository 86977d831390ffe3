"""Every API answer the bot decodes is decoded as the type the route returns.

The bot's reads and effects are found in its source (`api.get(path, T)`, `api.read(path, T)`,
`api.effect(method, path, effect, type=T)`, `msgspec.convert(await api.get(path), T)`), each
path matched to the Litestar route that serves it, and the route handler's return annotation
must be the very type the bot decodes: the SDK's, shared by both sides, never a copy.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genji_api.app import create_app
from genji_api.settings import ApiSettings

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "apps/bot/src"
CLIENT = BOT / "genji_bot/api.py"  # the client itself: it decodes whatever type it is given
PREFIX = "/api/v3"


@dataclass(frozen=True)
class Read:
    where: str
    method: str
    path: str
    decoded: type[Any]

    @property
    def route(self) -> str:
        return f"{self.method} {self.path}"


def _path(node: ast.expr, module: Any) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and isinstance(getattr(module, node.id, None), str):
        value: str = getattr(module, node.id)
        return value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            parts.append(part.value if isinstance(part, ast.Constant) else "{}")
        return "".join(str(part) for part in parts)
    return None


def _attr(call: ast.Call) -> str | None:
    """The method name of a call on the API client (`api`, `job.api`, `self.api`, `client`)."""
    if not isinstance(call.func, ast.Attribute):
        return None
    receiver = ast.unparse(call.func.value)
    if call.func.attr == "convert" or receiver.endswith(("api", "client")):
        return call.func.attr
    return None


def _found(call: ast.Call) -> tuple[str, ast.expr, ast.expr] | None:
    """(method, path node, type node) of a decoding call, if `call` is one."""
    name = _attr(call)
    if name in ("get", "read") and len(call.args) >= 2:
        return "GET", call.args[0], call.args[1]
    if name == "effect" and len(call.args) >= 2:
        typed = [kw.value for kw in call.keywords if kw.arg == "type"]
        method = call.args[0]
        if typed and isinstance(method, ast.Constant):
            return str(method.value), call.args[1], typed[0]
    if name == "convert" and len(call.args) == 2 and isinstance(call.args[0], ast.Await):
        inner = call.args[0].value
        if isinstance(inner, ast.Call) and _attr(inner) == "get" and inner.args:
            return "GET", inner.args[0], call.args[1]
    return None


def bot_reads() -> list[Read]:
    reads = []
    for path in sorted((BOT / "genji_bot").rglob("*.py")):
        if path == CLIENT:
            continue
        module = importlib.import_module(
            ".".join(path.relative_to(BOT).with_suffix("").parts).removesuffix(".__init__")
        )
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or (found := _found(node)) is None:
                continue
            method, path_node, type_node = found
            route = _path(path_node, module)
            decoded = (
                getattr(module, type_node.id, None) if isinstance(type_node, ast.Name) else None
            )
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            assert route is not None and isinstance(decoded, type), f"unreadable call at {where}"
            reads.append(Read(where, method, route, decoded))
    return reads


def served_types() -> list[tuple[str, re.Pattern[str], Any]]:
    app = create_app(ApiSettings(database_url="postgresql://unused.invalid/unused"))
    served = []
    for route in app.routes:
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", route.path) + "$")
        for handler in getattr(route, "route_handlers", []):
            for method in handler.http_methods:
                annotation = handler.parsed_fn_signature.return_type.annotation
                served.append((method, pattern, annotation))
    return served


def _serving(read: Read, served: list[tuple[str, re.Pattern[str], Any]]) -> list[Any]:
    concrete = PREFIX + read.path.replace("{}", "1")
    matches = [(p, t) for m, p, t in served if m == read.method and p.match(concrete)]
    # A route with more literal segments wins, as in the router.
    matches.sort(key=lambda pair: pair[0].pattern.count("[^/]+"))
    return [t for _, t in matches[:1]]


def test_every_route_the_bot_decodes_returns_the_type_it_decodes() -> None:
    served = served_types()
    reads = bot_reads()
    assert len(reads) >= 20, f"only {len(reads)} decoding calls found in the bot"
    problems = []
    for read in reads:
        returned = _serving(read, served)
        if not returned:
            problems.append(f"{read.where}: no route serves {read.route}")
        elif returned[0] is not read.decoded:
            problems.append(
                f"{read.where}: {read.route} returns {returned[0]!r}, "
                f"the bot decodes {read.decoded!r}"
            )
    assert problems == [], "\n".join(problems)
