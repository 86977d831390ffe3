"""Translate a msgspec string pattern (Python `re.search`) into a PostgreSQL regular expression.

The two dialects disagree in small ways that matter for a contract: Python's `$` also matches
before a final newline, its `.` never matches a newline, and `\\d`, `\\w`, `\\s` cover all of
Unicode. Only a small, safe subset is translated; anything else fails loudly so a new pattern
gets a deliberate translation instead of a silent disagreement.
"""

from __future__ import annotations

__all__ = ("UnsupportedPatternError", "to_postgres")

# Escaped characters that mean themselves in both dialects.
_LITERAL_ESCAPES = frozenset(".^$*+?()[]{}|\\-/ ")
_MAX_REPEAT = 255  # PostgreSQL's limit for {m,n} bounds


class UnsupportedPatternError(ValueError):
    """The pattern uses syntax the translation does not cover."""


def to_postgres(pattern: str) -> str:
    """A PostgreSQL ARE matching (with `~`) exactly the strings `re.search(pattern)` matches."""
    return _Translator(pattern).translate()


class _Translator:
    def __init__(self, pattern: str) -> None:
        self.src = pattern
        self.pos = 0
        self.out: list[str] = []

    def fail(self, why: str) -> UnsupportedPatternError:
        return UnsupportedPatternError(f"pattern {self.src!r} at {self.pos}: {why}")

    def peek(self) -> str:
        return self.src[self.pos] if self.pos < len(self.src) else ""

    def translate(self) -> str:
        depth = 0
        while self.pos < len(self.src):
            char = self.src[self.pos]
            if char == "\\":
                self.out.append(self.escape())
                continue
            if char == "[":
                self.out.append(self.bracket())
                continue
            if char == "(":
                if self.src.startswith("(?:", self.pos):
                    self.out.append("(?:")
                    self.pos += 3
                elif self.src.startswith("(?", self.pos):
                    raise self.fail("only (?:...) groups are supported")
                else:
                    self.out.append("(")
                    self.pos += 1
                depth += 1
                continue
            if char == ")":
                depth -= 1
                if depth < 0:
                    raise self.fail("unbalanced parenthesis")
            self.pos += 1
            if char == ".":
                self.out.append("[^\\n]")  # Python's dot never matches a newline
            elif char == "$":
                self.out.append("(?=\\n?$)")  # Python's $ also matches before a final newline
            elif char == "{":
                self.out.append(self.repeat())
            elif char in "*+?":
                if self.peek() == "+":
                    raise self.fail("possessive quantifiers are not supported")
                self.out.append(char)
            elif char == "}" or char == "]":
                raise self.fail(f"unescaped {char!r}")
            else:
                self.out.append(char)
        if depth:
            raise self.fail("unbalanced parenthesis")
        return "".join(self.out)

    def escape(self) -> str:
        self.pos += 1
        char = self.peek()
        if char not in _LITERAL_ESCAPES or char == "":
            raise self.fail(f"escape \\{char} is not supported")
        self.pos += 1
        return "\\" + char if char not in " /" else char

    def bracket(self) -> str:
        self.pos += 1
        parts = ["["]
        if self.peek() == "^":
            parts.append("^")
            self.pos += 1
        if self.peek() in ("]", ""):
            raise self.fail("empty or ']'-leading character class")
        while True:
            char = self.peek()
            if char == "":
                raise self.fail("unterminated character class")
            if char == "]":
                self.pos += 1
                parts.append("]")
                break
            if char == "[" or self.src.startswith(("--", "&&", "~~", "||"), self.pos):
                raise self.fail("nested classes and set operations are not supported")
            if char == "\\":
                self.pos += 1
                escaped = self.peek()
                if escaped not in "\\]-^[":
                    raise self.fail(f"escape \\{escaped} in a class is not supported")
                parts.append("\\" + escaped)
            elif not (char.isascii() and (char.isalnum() or char in " -_.,:;/@#%&=+*!?'\"<>~")):
                raise self.fail(f"{char!r} in a class is not supported")
            else:
                parts.append(char)
            self.pos += 1
        return "".join(parts)

    def repeat(self) -> str:
        end = self.src.find("}", self.pos)
        if end < 0:
            raise self.fail("unterminated repetition")
        body = self.src[self.pos : end]
        low, comma, high = body.partition(",")
        if not (low.isdigit() or (comma and low == "")) or (high and not high.isdigit()):
            raise self.fail(f"repetition {{{body}}} is not supported")
        bounds = [int(low or 0), *([int(high)] if high else [])]
        if max(bounds) > _MAX_REPEAT or (len(bounds) == 2 and bounds[0] > bounds[1]):
            raise self.fail(f"repetition {{{body}}} is out of range")
        self.pos = end + 1
        if self.peek() == "+":
            raise self.fail("possessive quantifiers are not supported")
        return "{" + str(bounds[0]) + ("," if comma else "") + (high if high else "") + "}"
