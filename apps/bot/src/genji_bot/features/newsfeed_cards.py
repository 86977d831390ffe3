"""Newsfeed cards (one embed per entry type) and the playtest thread's starter card that a
guide or map edit refreshes. Cards mention no one."""

from __future__ import annotations

from typing import Any

from genji_bot.effects.port import Embed, Field, Outgoing


def _codes(codes: list[str]) -> str:
    return ", ".join(f"`{code}`" for code in codes)


def _change(name: str, values: list[Any]) -> Field:
    old, new = [*values, None, None][:2]
    return Field(name=name.replace("_", " ").title(), value=f"{old} → {new}")


def _embed(entry: dict[str, Any]) -> Embed:
    kind = entry["type"]
    if kind == "record":
        return Embed(
            title="New Record!",
            description=f"**{entry['name']}** set a record on {entry['map_name']} "
            f"(`{entry['code']}`): {entry['time']}",
            fields=(Field("Rank", str(entry["rank_num"]), True),),
            url=entry.get("video"),
        )
    if kind == "new_map":
        return Embed(
            title="New Map!",
            description=f"{entry['map_name']} (`{entry['code']}`) "
            f"by {', '.join(entry['creators'])}",
            fields=(Field("Difficulty", str(entry.get("difficulty") or "-"), True),),
        )
    if kind in ("archive", "unarchive"):
        verb = "archived" if kind == "archive" else "unarchived"
        return Embed(
            title=f"Map {verb}",
            description=f"{entry['map_name']} (`{entry['code']}`)",
            fields=(Field("Reason", entry["reason"]),),
        )
    if kind in ("bulk_archive", "bulk_unarchive"):
        verb = "archived" if kind == "bulk_archive" else "unarchived"
        return Embed(
            title=f"Maps {verb}",
            description=_codes(entry["codes"]),
            fields=(Field("Reason", entry["reason"]),),
        )
    if kind == "guide":
        return Embed(
            title="New Guide!",
            description=f"{entry['name']} posted a guide for `{entry['code']}`",
            url=entry["guide_url"],
        )
    if kind == "legacy_record":
        return Embed(
            title="Records moved to legacy",
            description=f"`{entry['code']}`: {entry['affected_count']} records",
            fields=(Field("Reason", entry["reason"]),),
        )
    if kind == "map_edit":
        changes = entry["changes"]
        return Embed(
            title="Map updated",
            description=f"`{entry['code']}`",
            fields=(*(_change(k, v) for k, v in changes.items()), Field("Reason", entry["reason"])),
        )
    if kind == "role":
        return Embed(title="New Role!", description=f"{entry['name']}: {', '.join(entry['added'])}")
    if kind == "announcement":
        return Embed(title=entry["title"], description=entry["content"])
    if kind == "linked_map":
        return Embed(
            title="Maps linked",
            description=f"`{entry['official_code']}` ↔ `{entry['unofficial_code']}`",
        )
    if kind == "unlinked_map":
        return Embed(
            title="Maps unlinked",
            description=f"`{entry['official_code']}` ↔ `{entry['unofficial_code']}`",
            fields=(Field("Reason", entry["reason"]),),
        )
    return Embed(title=str(kind))


def newsfeed_card(entry: dict[str, Any]) -> Outgoing:
    return Outgoing(embed=_embed(entry))
