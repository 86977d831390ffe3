"""The one way the API, the bot and the worker read their settings from the environment.

A process declares a table of `Variable`s (the variable's name, how its text is parsed, its
field, its one-line doc) and `read_table` turns the variables that are set into keyword
arguments of the process's frozen settings dataclass, whose field defaults stay the defaults.
`unknown_setting` refuses GENJI_* names that no part of the project reads (the list is
genji_worker.genji_names), naming the nearest known one, so a typo stops the start-up (exit
status 2) instead of being ignored.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any


class Refused(ValueError):
    """A parser's own reason, said after the variable's name ("names no id")."""


@dataclass(frozen=True)
class Variable:
    name: str
    field: str
    parse: Callable[[str], Any]
    kind: str
    """What the text must be, for the message that refuses it ("a number of seconds")."""
    doc: str


def read_table(table: Iterable[Variable], environ: Mapping[str, str]) -> dict[str, Any]:
    """{field: parsed value} for each variable of `table` set (non-empty) in `environ`.
    Raises ValueError naming the variable when its text does not parse."""
    values: dict[str, Any] = {}
    for variable in table:
        raw = environ.get(variable.name, "")
        if not raw.strip():
            continue
        try:
            values[variable.field] = variable.parse(raw)
        except Refused as error:
            raise ValueError(f"{variable.name} {error}") from None
        except ValueError:
            raise ValueError(f"{variable.name} must be {variable.kind}, not {raw!r}") from None
    return values


def unknown_setting(
    environ: Mapping[str, str],
    known: Iterable[str],
    retired: Mapping[str, str],
    prefix: str = "GENJI_",
) -> str | None:
    """Why the first `prefix` variable in `environ` that is neither known nor retired is
    refused, with the nearest known name; or None."""
    names = sorted(set(known))
    for name in sorted(n for n in environ if n.startswith(prefix) and n not in names):
        where = retired.get(name)
        if where:
            return f"{name} is no longer a worker setting: {where}"
        near = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {near[0]}?" if near else ""
        return f"unknown setting {name}{hint}"
    return None


def seconds(raw: str) -> timedelta:
    return timedelta(seconds=float(raw))


def seconds_list(raw: str) -> tuple[timedelta, ...]:
    return tuple(timedelta(seconds=float(part)) for part in raw.split(",") if part.strip())


def ids(raw: str) -> tuple[int, ...]:
    """Comma-separated Discord ids."""
    return tuple(int(part) for part in raw.split(",") if part.strip())


def flag(raw: str) -> bool:
    return raw.lower() not in ("0", "false", "no")
