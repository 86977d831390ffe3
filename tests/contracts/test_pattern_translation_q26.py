"""Q26: a translated string pattern matches in PostgreSQL exactly where msgspec's matches.

msgspec checks a pattern with Python's `re.search`; the contract checks its translation with
PostgreSQL's `~`. Every pattern below is compared on strings chosen to hit the dialects'
differences: newlines (Python's `$` and `.`), anchors, alternation and repetition bounds.
"""

from __future__ import annotations

import itertools
import re

import pytest
from genji_sdk.contracts import UnsupportedPatternError, to_postgres

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

PATTERNS = [
    r"^[A-Z0-9]+$",
    r"^a.c$",
    r"ab|cd$",
    r"^(?:ab)+$",
    r"x{2,3}",
    r"^x{2}$",
    r"^x{,2}$",
    r"^x{2,}$",
    r"^[^a-z]*$",
    r"^[a\-z]+$",
    r"c$|^a",
    r"^(a|b)?c*?$",
    r"\.",
    r"^\$",
    r"a$",
    r"^$",
]

STRINGS = [
    "",
    "\n",
    "ABCD",
    "ABCD\n",
    "ABCD\n\n",
    "\nABCD",
    "AB\nCD",
    "abcd",
    "abc",
    "a\nc",
    "abc\n",
    "ab",
    "cd",
    "cd\n",
    "abab",
    "abab\n",
    "xx",
    "xxx",
    "xxxx",
    "x",
    "x\n",
    "a-z",
    "A-Z",
    "c",
    "cc\n",
    "$",
    "$\n",
    "ÄB",
    ".",
]


def test_q26_translations_of_the_payload_patterns() -> None:
    assert to_postgres(r"^[A-Z0-9]+$") == r"^[A-Z0-9]+(?=\n?$)"
    assert to_postgres(r"^a.c$") == r"^a[^\n]c(?=\n?$)"
    assert to_postgres(r"^x{,2}$") == r"^x{0,2}(?=\n?$)"


async def test_q26_translated_patterns_match_like_python(connect: Connect) -> None:
    conn = await connect()
    pairs = list(itertools.product(PATTERNS, STRINGS))
    rows = await conn.fetch(
        "SELECT s ~ p AS matched FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(p, s, n)"
        " ORDER BY n",
        [to_postgres(p) for p, _ in pairs],
        [s for _, s in pairs],
    )
    wrong = [
        (pattern, text)
        for (pattern, text), row in zip(pairs, rows, strict=True)
        if row["matched"] != bool(re.search(pattern, text))
    ]
    assert not wrong


@pytest.mark.parametrize(
    "pattern",
    [
        r"^\d+$",
        r"\w",
        r"\s",
        r"(?=a)",
        r"(?i)a",
        r"(?P<x>a)",
        r"a{x}",
        r"a{300}",
        r"[[:alpha:]]",
        r"[\d]",
        r"a++",
        r"[a-z&&b]",
    ],
)
def test_q26_patterns_without_a_faithful_translation_are_refused(pattern: str) -> None:
    with pytest.raises(UnsupportedPatternError):
        to_postgres(pattern)
