"""Reading and writing HTTP bodies as Discord does: JSON answers, JSON or multipart requests
(a `payload_json` part, as discord.py sends with files), snowflakes in paths."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from genji_devstack.discord_standin import errors
from genji_devstack.discord_standin.errors import DiscordError


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json", no charset: discord.py parses JSON only on an exact match.
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> dict[str, Any]:
    """The JSON body of a write, sent as JSON or as multipart with a `payload_json` part."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        if raw is None:
            return {}
        if isinstance(raw, str):
            text = raw
        elif isinstance(raw, bytes | bytearray):
            text = bytes(raw).decode()
        else:
            text = raw.file.read().decode()
    else:
        text = await request.text()
    if not text.strip():
        return {}
    try:
        body = json.loads(text)
    except ValueError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
    if not isinstance(body, dict):
        raise errors.invalid_form(
            {"_errors": [{"code": "DICT_TYPE_CONVERT", "message": "Only dictionaries allowed"}]}
        )
    return body


def snowflake(request: web.Request, name: str) -> int:
    raw = request.match_info[name]
    if not raw.isdigit():
        raise errors.invalid_form(
            {
                name: {
                    "_errors": [
                        {
                            "code": "NUMBER_TYPE_COERCE",
                            "message": f'Value "{raw}" is not snowflake.',
                        }
                    ]
                }
            }
        )
    return int(raw)
