"""What a running stand-in holds, printed for a person: channels, threads and DMs with their
messages (id, content, embed title and fields, buttons, nonce), interactions and their answers,
and the requests it served by route and status."""

from __future__ import annotations

from typing import Any, TextIO

import httpx

CONTROL_PREFIX = "/_standin"


class Unreachable(Exception):
    pass


def fetch_state(url: str, *, timeout: float = 5.0) -> dict[str, Any]:
    try:
        response = httpx.get(f"{url.rstrip('/')}{CONTROL_PREFIX}/state", timeout=timeout)
        response.raise_for_status()
    except httpx.HTTPError as error:
        raise Unreachable(f"cannot reach the Discord stand-in at {url}: {error}") from error
    state: dict[str, Any] = response.json()
    return state


def _buttons(message: dict[str, Any]) -> list[str]:
    shown = []
    for row in message.get("components") or []:
        for child in row.get("components") or []:
            if child.get("type") == 2:
                disabled = " (disabled)" if child.get("disabled") else ""
                shown.append(f"[{child.get('label') or child.get('custom_id')}]{disabled}")
    return shown


def _message_lines(message: dict[str, Any]) -> list[str]:
    content = message.get("content") or ""
    nonce = message.get("nonce")
    head = f"    {message['id']}: {content!r}" + (f" nonce={nonce}" if nonce else "")
    if message.get("flags", 0) & 64:
        head += " (ephemeral)"
    if message.get("message_snapshots"):
        reference = message.get("message_reference") or {}
        head += f" forwards {reference.get('channel_id')}/{reference.get('message_id')}"
    lines = [head]
    for embed in message.get("embeds") or []:
        lines.append(f"      embed: {embed.get('title') or ''!r}")
        for item in embed.get("fields") or []:
            lines.append(f"        {item.get('name')}: {item.get('value')}")
    buttons = _buttons(message)
    if buttons:
        lines.append("      buttons: " + " ".join(buttons))
    return lines


def _channel_block(title: str, channel: dict[str, Any]) -> list[str]:
    messages = channel.get("messages") or []
    lines = [f"{title} ({len(messages)} messages)"]
    for message in messages:
        lines.extend(_message_lines(message))
    return lines


def render(state: dict[str, Any]) -> str:
    guild = state["guild"]
    lines = [f"guild {guild['id']} {guild['name']!r}; bot user {state['bot_user_id']}"]
    gateway = state.get("gateway") or {}
    lines.append(
        f"gateway: connected={gateway.get('connected')} readies={gateway.get('readies')} "
        f"resumed={gateway.get('resumed')} closes={gateway.get('closes')}"
    )
    for channel in state["channels"]:
        if channel.get("messages") or channel.get("denied_code"):
            denied = f" denied {channel['denied_code']}" if channel.get("denied_code") else ""
            lines.extend(_channel_block(f"#{channel['name']} {channel['id']}{denied}", channel))
    for thread in state["threads"]:
        meta = thread.get("thread_metadata") or {}
        flags = ", ".join(name for name in ("archived", "locked") if meta.get(name)) or "open"
        title = (
            f"thread {thread['id']} {thread['name']!r} in {thread['parent_id']} ({flags}; "
            f"tags {thread.get('applied_tags')})"
        )
        lines.extend(_channel_block(title, thread))
    for dm in state["dms"]:
        closed = "" if dm.get("dms_open") else " (DMs closed)"
        lines.extend(_channel_block(f"DM with {dm['user_id']}{closed}", dm))
    for item in state["interactions"]:
        lines.append(
            f"interaction {item['id']} {item['custom_id']!r} by {item['user_id']}: "
            f"callback type {item['callback_type']}"
        )
        for followup in item.get("followups") or []:
            if followup is not None:
                lines.extend(_message_lines(followup))
    lines.append("requests:")
    for route, by_status in state["requests"].items():
        counts = ", ".join(f"{status}: {n}" for status, n in by_status.items())
        lines.append(f"  {route}  {counts}")
    return "\n".join(lines)


def print_report(url: str, out: TextIO) -> None:
    out.write(render(fetch_state(url)) + "\n")
