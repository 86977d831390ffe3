"""Finds credentials in text files: the project's API keys, passwords, DSNs with a password,
secret-bearing headers and bearer tokens by their shape, plus exact known secret values.

A hit names its file, line and kind with a redacted excerpt: the secret itself is never
printed. Values the project's redaction leaves (`***`) are not hits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

# Each pattern's group "secret" is the value that must not be there.
PATTERNS: dict[str, re.Pattern[str]] = {
    # genji_api.auth.keys.new_api_key: "gjs_" and 43 URL-safe characters.
    "api key": re.compile(r"(?P<secret>gjs_[A-Za-z0-9_-]{20,})"),
    # Every pattern starts at a fixed literal: lines of captured payloads can be very long,
    # and an open-ended prefix would make the search quadratic in them.
    "password in a DSN": re.compile(r"://[^\s/:@\"']+:(?P<secret>[^\s/@\"']+)@"),
    # Also PGPASSWORD=, QUEUE_DATABASE_PASSWORD=, "password": ...
    "password": re.compile(r"(?i)passw(?:or)?d[\"']?\s*[:=]\s*[\"']?(?P<secret>[^\s\"',;&}]+)"),
    "secret header": re.compile(
        r"(?i)\b(?:authorization|cookie|x-api-key)[\"']?\s*[:=]\s*[\"']?"
        r"(?!bearer\b)(?P<secret>[^\s\"',;}]+)"
    ),
    "bearer token": re.compile(r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})"),
}

# What a value looks like once redacted, or when it is no value at all.
_NOT_A_SECRET = re.compile(r"(?i)^(?:\*+|<redacted>|\[redacted\]|redacted|none|null|)$")
EXCERPT_RADIUS = 30


@dataclass(frozen=True)
class Hit:
    path: Path
    line: int
    kind: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.excerpt}"


def _excerpt(text: str, start: int, end: int) -> str:
    """The text around [start, end) with the secret itself replaced."""
    before = text[max(0, start - EXCERPT_RADIUS) : start]
    after = text[end : end + EXCERPT_RADIUS]
    return f"...{before}<{end - start} chars hidden>{after}...".replace("\n", " ")


def scan_line(line: str, known: Iterable[str] = ()) -> Iterator[tuple[str, str]]:
    """(kind, redacted excerpt) for every credential in `line`."""
    for value in known:
        start = line.find(value)
        if start >= 0:
            yield "known secret value", _excerpt(line, start, start + len(value))
    for kind, pattern in PATTERNS.items():
        for match in pattern.finditer(line):
            if _NOT_A_SECRET.match(match.group("secret")):
                continue
            yield kind, _excerpt(line, match.start("secret"), match.end("secret"))


def scan_file(path: Path, known: Iterable[str] = ()) -> Iterator[Hit]:
    text = path.read_text(encoding="utf-8", errors="replace")
    # Most files hold no known value: look for each in the whole text, then per line.
    values = tuple(value for value in known if value in text)
    for number, line in enumerate(text.splitlines(), 1):
        for kind, excerpt in scan_line(line, values):
            yield Hit(path, number, kind, excerpt)


def scan_tree(roots: Iterable[Path], known: Iterable[str] = ()) -> tuple[list[Path], list[Hit]]:
    """Every file below `roots` (missing roots are skipped) and the hits in them."""
    values = tuple(known)
    files = sorted(p for root in roots if root.is_dir() for p in root.rglob("*") if p.is_file())
    return files, [hit for path in files for hit in scan_file(path, values)]
