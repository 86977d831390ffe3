"""Discord's limits on an outgoing message, and `fitted`, which makes any `Outgoing` respect them.

Discord refuses a message past any of these with 400 / 50035 "Invalid Form Body", so every
send and edit renders `fitted(message)` (genji_bot.discord.render), and the fingerprint that
reconciliation compares is that of the fitted message (`Outgoing.fingerprint`): what Discord
holds is what was fingerprinted.

Fitting keeps the wording and cuts what is too long at the end, marked by a trailing "…", so
a cut text is exactly at its limit:
- content, embed title, description, field names and values, footer and button labels are cut
  at their own limits;
- fields past the 25th are dropped;
- when an embed's texts together exceed EMBED_TOTAL, the longest ones are cut to one common
  length, the largest that brings the total within it (shorter texts are kept whole);
- a field name or value that is empty (or only whitespace), which Discord refuses, becomes
  PLACEHOLDER, as does an empty button label; nothing else is added.

Lengths are counted in code points. Custom ids are never cut, since a cut id would no longer
parse: a button whose id is empty or past CUSTOM_ID, a repeated id, or more than MAX_BUTTONS
buttons is a bug of the card and raises ValueError. `fitted` is pure and idempotent, and a
message already within every limit is returned as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from genji_bot.effects.port import Button, Embed, Field, Outgoing

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
"""Title, description, every field name and value, and the footer of one embed, together."""
BUTTON_LABEL = 80
CUSTOM_ID = 100
BUTTONS_PER_ROW = 5
ROWS = 5
MAX_BUTTONS = BUTTONS_PER_ROW * ROWS
THREAD_NAME = 100

ELLIPSIS = "…"
PLACEHOLDER = "-"


def truncated(text: str, limit: int) -> str:
    """`text` when it fits in `limit` characters, else its start and "…", exactly `limit` long."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS


def _required(text: str) -> str:
    """A text Discord refuses when empty: PLACEHOLDER stands in for it."""
    return text if text.strip() else PLACEHOLDER


def thread_name(name: str) -> str:
    """A forum thread's name within THREAD_NAME."""
    return truncated(name, THREAD_NAME)


def _common_length(lengths: list[int], budget: int) -> int | None:
    """The largest length `c` with sum(min(n, c)) <= budget; None when they already fit."""
    if sum(lengths) <= budget:
        return None
    remaining, count = budget, len(lengths)
    for index, length in enumerate(sorted(lengths)):
        left = count - index
        if length * left > remaining:
            return remaining // left
        remaining -= length
    return None  # unreachable: the sum exceeds the budget


def _field(value: Field) -> Field:
    name = truncated(_required(value.name), FIELD_NAME)
    text = truncated(_required(value.value), FIELD_VALUE)
    if name == value.name and text == value.value:
        return value
    return msgspec.structs.replace(value, name=name, value=text)


def _embed(value: Embed) -> Embed:
    title = truncated(value.title, EMBED_TITLE)
    description = truncated(value.description, EMBED_DESCRIPTION)
    fields = [_field(item) for item in value.fields[:EMBED_FIELDS]]
    footer = truncated(value.footer, FOOTER)
    texts = [title, description, *(t for item in fields for t in (item.name, item.value)), footer]
    cap = _common_length([len(text) for text in texts], EMBED_TOTAL)
    if cap is not None:
        title, description, footer = (truncated(t, cap) for t in (title, description, footer))
        fields = [
            msgspec.structs.replace(
                item, name=truncated(item.name, cap), value=truncated(item.value, cap)
            )
            for item in fields
        ]
    fitted_embed = msgspec.structs.replace(
        value, title=title, description=description, fields=tuple(fields), footer=footer
    )
    return value if fitted_embed == value else fitted_embed


def check_custom_id(custom_id: str) -> str:
    """The id itself, when Discord accepts it; ValueError otherwise (an id is never cut)."""
    if not 1 <= len(custom_id) <= CUSTOM_ID:
        raise ValueError(f"custom id of {len(custom_id)} characters (1 to {CUSTOM_ID} allowed)")
    return custom_id


def _buttons(buttons: tuple[Button, ...]) -> tuple[Button, ...]:
    if len(buttons) > MAX_BUTTONS:
        raise ValueError(f"{len(buttons)} buttons (at most {MAX_BUTTONS} fit in a message)")
    ids = [check_custom_id(item.custom_id) for item in buttons]
    if len(set(ids)) != len(ids):
        raise ValueError(f"repeated custom ids among {ids}")
    fitted_buttons = tuple(
        msgspec.structs.replace(item, label=truncated(_required(item.label), BUTTON_LABEL))
        for item in buttons
    )
    return buttons if fitted_buttons == buttons else fitted_buttons


def fitted(message: Outgoing) -> Outgoing:
    """`message` within every limit of Discord's (see the module's docstring for how)."""
    content = truncated(message.content, CONTENT)
    embed = _embed(message.embed) if message.embed is not None else None
    buttons = _buttons(message.buttons)
    if content == message.content and embed is message.embed and buttons is message.buttons:
        return message
    return msgspec.structs.replace(message, content=content, embed=embed, buttons=buttons)
