"""Mutations of valid payloads, as JSON text, for comparing the SQL contract with msgspec.

Each mutation changes one place of a valid payload: drops a field, swaps a value for one of
another JSON type, bends a string (case, length, trailing newline, date-time edge cases) or a
number (fractions, integer and float limits), or adds an unknown field. Numbers that Python's
json cannot spell (1.0 for an int, 400-digit values) are written as raw JSON text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

Path = tuple[str | int, ...]

FLOAT_OVERFLOW = 2**1024 - 2**970  # the smallest magnitude that reads as infinity
RAW = msgspec.Raw

OTHER_TYPES: list[Any] = [None, True, False, 0, 7, -1, 1.5, "", "x", [], {}, [1], {"k": 1}]

NUMBERS: list[Any] = [
    0,
    -3,
    2**63,
    2**64 + 1,
    -(2**63) - 1,
    10**40,
    2.5,
    -0.25,
    RAW(b"5.0"),
    RAW(b"1e3"),
    RAW(b"1E-2"),
    RAW(b"1e-400"),
    RAW(b"1.7976931348623157e308"),
    RAW(b"1.7976931348623159e308"),
    RAW(str(FLOAT_OVERFLOW - 1).encode()),
    RAW(str(FLOAT_OVERFLOW).encode()),
    RAW(str(FLOAT_OVERFLOW).encode() + b".0"),
    RAW(b"-" + str(FLOAT_OVERFLOW).encode()),
    RAW(b"1" + b"0" * 400),
    RAW(b"1" + b"0" * 400 + b".5"),
    "5",
    True,
]

STRINGS: list[str] = [
    "",
    "ABCD",
    "ABCDEF",
    "ABC",
    "ABCDEFG",
    "ABCD\n",
    "ABC\n",
    "ABCDEF\n",
    "ABCD\n\n",
    "\nABCD",
    "AB\nCD",
    "AB CD",
    "abcd",
    "ÄBCD",
    "\uff21\uff22\uff23\uff24",  # fullwidth ABCD: letters, but not [A-Z]
    "Hell",
    "hell",
    "Very Hard -",
    "Very Hard",
    "Completion",
    "World Record",
    "discord_dm",
    "xp_gain",
    "\U0001d4b3\U0001d4b4",  # outside the BMP: one character each
]

DATETIMES: list[str] = [
    "2026-10-05T18:00:00Z",
    "2026-10-05T18:00:00+00:00",
    "2026-10-05T18:00:00",
    "2026-10-05 18:00:00Z",
    "2026-10-05t18:00:00z",
    "2026-10-05T18:00Z",
    "2026-10-05T18:00:00.1Z",
    "2026-10-05T18:00:00.123456789Z",
    "2026-10-05T18:00:00.Z",
    "2026-02-29T18:00:00Z",
    "2024-02-29T18:00:00Z",
    "2100-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-00-01T00:00:00Z",
    "2026-01-00T00:00:00Z",
    "2026-10-05T24:00:00Z",
    "2026-10-05T23:60:00Z",
    "2026-10-05T23:59:60Z",
    "2026-10-05T18:00:00+24:00",
    "2026-10-05T18:00:00+23:59",
    "2026-10-05T18:00:00+0000",
    "2026-10-05T18:00:00+00",
    "2026-10-05T18:00:00+01:0",
    "2026-10-05T18:00:00-00:00",
    "2026-10-05T18:00:00+00:60",
    "2026-10-05",
    "0000-01-01T00:00:00Z",
    "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:59:59Z",
    "9999-12-31T23:59:59.9999994Z",
    "9999-12-31T23:59:59.9999995Z",
    "9999-12-31T23:59:59.9999999-01:00",
    "2026-10-05T23:59:59.9999995Z",
    "20261005T180000Z",
    "2026-10-05T18:00:00\n",
    " 2026-10-05T18:00:00Z",
    "2026-10-05T18:00:00,5Z",
    "+2026-10-05T18:00:00Z",
    "٢٠٢٦-10-05T18:00:00Z",
    "2026-1-05T18:00:00Z",
    "2026-10-05T18:00:00Z0",
]


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


UNKNOWN_FIELD_VALUES: list[Any] = [
    1,
    "x",
    None,
    {"deep": _nested(8)},
    RAW(b"1" + b"0" * 400),
    RAW(b"1" + b"0" * 400 + b".5"),
    RAW(b"-1.7976931348623159e308"),
]


def _replace(data: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {k: (_replace(v, rest, value) if k == head else v) for k, v in data.items()}
    return [_replace(v, rest, value) if i == head else v for i, v in enumerate(data)]


def _drop(data: Any, path: Path) -> Any:
    head, rest = path[0], path[1:]
    if not rest:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k != head}
        return [v for i, v in enumerate(data) if i != head]
    if isinstance(data, dict):
        return {k: (_drop(v, rest) if k == head else v) for k, v in data.items()}
    return [_drop(v, rest) if i == head else v for i, v in enumerate(data)]


def _places(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _places(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _places(value, (*path, index))


def _variants(value: Any) -> list[Any]:
    if isinstance(value, bool) or value is None:
        return OTHER_TYPES
    if isinstance(value, int):
        return [*OTHER_TYPES, *NUMBERS, -value, RAW(f"{value}.0".encode()), value + 0.5]
    if isinstance(value, float):
        return [*OTHER_TYPES, *NUMBERS, -value, int(value), RAW(f"{value}e2".encode())]
    if isinstance(value, str):
        bent = [value + "\n", "\n" + value, value.lower(), value.upper(), value[:3], value * 2]
        dates = DATETIMES if value[:4].isdigit() and value[4:5] == "-" else []
        return [*OTHER_TYPES, *STRINGS, *bent, *dates]
    if isinstance(value, list):
        first = value[:1]
        wrong_items = [[*value, item] for item in (None, 1, "x", {}, [])]
        return [*OTHER_TYPES, value + first, *wrong_items]
    extra = [{**value, "zzz": item} for item in UNKNOWN_FIELD_VALUES]
    return [*OTHER_TYPES, *extra]


def mutations(valid: dict[str, Any]) -> Iterator[tuple[str, bytes]]:
    """(description, JSON text) for the valid payload and every single-place mutation of it."""
    yield "valid", msgspec.json.encode(valid)
    for path, value in _places(valid):
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        if path:
            yield f"drop {where}", msgspec.json.encode(_drop(valid, path))
        for variant in _variants(value):
            yield (
                f"{where} = {msgspec.json.encode(variant)[:40]!r}",
                msgspec.json.encode(_replace(valid, path, variant)),
            )
