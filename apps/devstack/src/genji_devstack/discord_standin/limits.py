"""Discord's documented limits on message and thread bodies, checked as Discord checks them.

A body that breaks one answers 400 with code 50035 "Invalid Form Body" and an `errors` object
nested along the path of each bad field, ending in `{"_errors": [{"code", "message"}]}`. A
message without content, embeds, components or a forwarded message is 400 code 50006.
"""

from __future__ import annotations

from typing import Any

from genji_devstack.discord_standin.errors import DiscordError, empty_message, invalid_form

CONTENT_MAX = 2000
NONCE_MAX = 25
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBEDS_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MAX = 100
THREAD_NAME_MAX = 100
LINK_STYLE = 5
PREMIUM_STYLE = 6
BUTTON = 2
ACTION_ROW = 1

Path = tuple[str, ...]


class Problems:
    """Collects the broken fields of one body, then nests them the way Discord answers."""

    def __init__(self) -> None:
        self.found: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.found.append((path, code, message))

    def too_long(self, path: Path, value: object, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def nested(self) -> dict[str, Any]:
        root: dict[str, Any] = {}
        for path, code, message in self.found:
            node = root
            for part in path:
                node = node.setdefault(part, {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def raise_if_any(self) -> None:
        if self.found:
            raise invalid_form(self.nested())


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def embed_length(embed: dict[str, Any]) -> int:
    """Characters that count towards the 6000 limit: title, description, field names and
    values, footer text and author name."""
    total = len(_text(embed.get("title"))) + len(_text(embed.get("description")))
    for item in embed.get("fields") or []:
        total += len(_text(item.get("name"))) + len(_text(item.get("value")))
    total += len(_text((embed.get("footer") or {}).get("text")))
    total += len(_text((embed.get("author") or {}).get("name")))
    return total


def _check_embed(problems: Problems, path: Path, embed: dict[str, Any]) -> None:
    problems.too_long((*path, "title"), embed.get("title"), EMBED_TITLE_MAX)
    problems.too_long((*path, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX)
    fields = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS_MAX:
        problems.add(
            (*path, "fields"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {EMBED_FIELDS_MAX} or fewer in length.",
        )
    for index, item in enumerate(fields):
        where = (*path, "fields", str(index))
        for key in ("name", "value"):
            if not _text(item.get(key)):
                problems.add((*where, key), "BASE_TYPE_REQUIRED", "This field is required")
        problems.too_long((*where, "name"), item.get("name"), EMBED_FIELD_NAME_MAX)
        problems.too_long((*where, "value"), item.get("value"), EMBED_FIELD_VALUE_MAX)
    footer = embed.get("footer") or {}
    problems.too_long((*path, "footer", "text"), footer.get("text"), EMBED_FOOTER_MAX)
    author = embed.get("author") or {}
    problems.too_long((*path, "author", "name"), author.get("name"), EMBED_AUTHOR_MAX)


def _check_components(problems: Problems, path: Path, rows: list[dict[str, Any]]) -> None:
    if len(rows) > ACTION_ROWS_MAX:
        problems.add(
            path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {ACTION_ROWS_MAX} in length."
        )
    seen: set[str] = set()
    for row_index, row in enumerate(rows):
        row_path = (*path, str(row_index))
        if row.get("type") != ACTION_ROW:
            continue  # layout components of other kinds are passed through unchecked
        children = row.get("components") or []
        if not 1 <= len(children) <= ROW_BUTTONS_MAX:
            problems.add(
                (*row_path, "components"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {ROW_BUTTONS_MAX} in length.",
            )
        for index, child in enumerate(children):
            where = (*row_path, "components", str(index))
            if child.get("type") != BUTTON:
                continue
            problems.too_long((*where, "label"), child.get("label"), BUTTON_LABEL_MAX)
            custom_id = child.get("custom_id")
            if child.get("style") in (LINK_STYLE, PREMIUM_STYLE):
                continue
            if not isinstance(custom_id, str) or not custom_id:
                problems.add(
                    (*where, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                    "A custom id is required",
                )
                continue
            problems.too_long((*where, "custom_id"), custom_id, CUSTOM_ID_MAX)
            if custom_id in seen:
                problems.add(
                    (*where, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)


def check_message(
    body: dict[str, Any], *, path: Path = (), creating: bool = True, forwarding: bool = False
) -> None:
    """Raise the DiscordError Discord answers for this message body, if any.

    `creating` requires something to show (an edit may clear parts of a message);
    `forwarding` counts the forwarded message as that something.
    """
    problems = Problems()
    content = body.get("content")
    problems.too_long((*path, "content"), content, CONTENT_MAX)
    problems.too_long((*path, "nonce"), body.get("nonce"), NONCE_MAX)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        problems.add(
            (*path, "embeds"), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length."
        )
    for index, embed in enumerate(embeds):
        _check_embed(problems, (*path, "embeds", str(index)), embed)
    if sum(embed_length(embed) for embed in embeds) > EMBEDS_TOTAL_MAX:
        problems.add(
            (*path, "embeds"),
            "MESSAGE_EMBED_TOTAL_LENGTH",
            f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX}",
        )
    _check_components(problems, (*path, "components"), body.get("components") or [])
    problems.raise_if_any()
    if (
        creating
        and not forwarding
        and not (
            _text(content).strip() or embeds or body.get("components") or body.get("attachments")
        )
    ):
        raise empty_message()


def check_thread_name(name: object) -> None:
    problems = Problems()
    if not isinstance(name, str) or not 1 <= len(name) <= THREAD_NAME_MAX:
        problems.add(
            ("name",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {THREAD_NAME_MAX} in length."
        )
    problems.raise_if_any()


__all__ = ["DiscordError", "check_message", "check_thread_name", "embed_length"]
