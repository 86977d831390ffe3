"""Reads a Sqitch plan (sqitch.plan): its changes in order, their tags and their reworks.

A change name may appear again after a tag (`sqitch rework`). Every earlier instance then keeps
its scripts as `<name>@<tag>.sql`; like Sqitch, the tag is looked up among the tags between that
instance and its rework, latest first, and the first one with a deploy script wins. The newest
instance uses `<name>.sql`.

Each instance also gets a key that never changes as the plan grows, so a migration tool can
record it: the first instance of a name is keyed `<name>`, a rework `<name>+<tag>`, after the
latest tag before it. (The old instance is renamed on disk by a rework, so file names cannot
serve as keys.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SCRIPT_KINDS = ("deploy", "revert", "verify")
_CHANGE = re.compile(r"^(?P<name>[^\s@#\[\]:]+)\s*(?:\[(?P<deps>[^\]]*)\])?\s")
_TAG = re.compile(r"^@(?P<name>[^\s@#\[\]:]+)\s")


class PlanError(ValueError):
    """The plan file is malformed or uses something this reader does not support."""


@dataclass(frozen=True)
class Change:
    name: str
    key: str
    script: str
    """File name stem of its deploy, revert and verify scripts."""
    requires: tuple[str, ...]
    """Keys of the instances it requires."""
    tag: str | None
    """The first tag after it: the release it belongs to (None while untagged)."""

    def path(self, directory: Path, kind: str) -> Path:
        return directory / kind / f"{self.script}.sql"


@dataclass(frozen=True)
class Plan:
    changes: tuple[Change, ...]
    tags: tuple[str, ...]
    text: str
    tag_ends: dict[str, int] = field(repr=False)
    """Offset in `text` just past each tag's line."""

    def text_through(self, tag: str) -> str:
        """The plan as it read when `tag` was added: every line up to and including the tag."""
        return self.text[: self.tag_ends[tag]]

    def released_with(self, tag: str) -> list[Change]:
        return [c for c in self.changes if c.tag == tag]

    def newest(self, name: str) -> Change | None:
        found = [c for c in self.changes if c.name == name]
        return found[-1] if found else None


@dataclass
class _Instance:
    name: str
    key: str
    requires: tuple[str, ...]
    tags_after: list[str] = field(default_factory=list)
    reworked: bool = False


def read_plan(directory: Path) -> Plan:
    text = (directory / "sqitch.plan").read_text()
    instances: list[_Instance] = []
    latest: dict[str, _Instance] = {}
    at_tag: dict[tuple[str, str], _Instance] = {}  # (name, tag) -> instance current at that tag
    tags: list[str] = []
    tag_ends: dict[str, int] = {}
    offset = 0
    for number, raw in enumerate(text.splitlines(keepends=True), start=1):
        offset += len(raw)
        line = raw.strip()
        if not line or line.startswith(("%", "#")):
            continue
        if line.startswith("@"):
            tag = _parse_tag(line, number)
            if tag in tag_ends:
                raise PlanError(f"line {number}: tag @{tag} appears twice")
            tags.append(tag)
            tag_ends[tag] = offset
            # Only the newest instance of a name collects tags: an older one's run ended at
            # its rework.
            for name, instance in latest.items():
                instance.tags_after.append(tag)
                at_tag[(name, tag)] = instance
            continue
        name, deps = _parse_change(line, number)
        previous = latest.get(name)
        if previous is not None:
            if not previous.tags_after:
                raise PlanError(f"line {number}: {name} is reworked without an intervening tag")
            previous.reworked = True
            key = f"{name}+{tags[-1]}"
        else:
            key = name
        requires = tuple(_resolve(dep, latest, at_tag, number) for dep in deps)
        instance = _Instance(name, key, requires)
        instances.append(instance)
        latest[name] = instance
    changes = tuple(
        Change(
            name=i.name,
            key=i.key,
            script=_script_stem(i, directory) if i.reworked else i.name,
            requires=i.requires,
            tag=i.tags_after[0] if i.tags_after else None,
        )
        for i in instances
    )
    return Plan(changes=changes, tags=tuple(tags), text=text, tag_ends=tag_ends)


def _parse_tag(line: str, number: int) -> str:
    match = _TAG.match(line)
    if not match:
        raise PlanError(f"line {number}: malformed tag: {line!r}")
    return match["name"]


def _parse_change(line: str, number: int) -> tuple[str, list[str]]:
    match = _CHANGE.match(line)
    if not match:
        raise PlanError(f"line {number}: malformed change: {line!r}")
    deps = (match["deps"] or "").split()
    for dep in deps:
        if dep.startswith("!") or ":" in dep:
            raise PlanError(f"line {number}: conflicts and other projects are unsupported: {dep}")
    return match["name"], deps


def _resolve(
    dep: str,
    latest: dict[str, _Instance],
    at_tag: dict[tuple[str, str], _Instance],
    number: int,
) -> str:
    name, _, tag = dep.partition("@")
    found = at_tag.get((name, tag)) if tag else latest.get(name)
    if found is None:
        raise PlanError(f"line {number}: requires {dep}, which is not earlier in the plan")
    return found.key


def _script_stem(instance: _Instance, directory: Path) -> str:
    # Sqitch's order: the latest intervening tag first (what `sqitch rework` names the copies).
    for tag in reversed(instance.tags_after):
        stem = f"{instance.name}@{tag}"
        if (directory / "deploy" / f"{stem}.sql").exists():
            return stem
    return f"{instance.name}@{instance.tags_after[-1]}"
