"""The broker export manifest: each queue's messages as the broker's management API returns them.

A message is what `POST /api/queues/{vhost}/{queue}/get` answers, one list per queue, wrapped
as {"exported_at": ..., "queues": [{"name": ..., "vhost": "/", "messages": [...]}]}.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal
from uuid import UUID

import msgspec


class MessageProperties(msgspec.Struct, kw_only=True):
    """The AMQP basic properties the export keeps; other properties are ignored."""

    message_id: str | None = None
    correlation_id: str | None = None
    headers: dict[str, Any] = {}
    timestamp: int | None = None
    content_type: str | None = None
    delivery_mode: int | None = None


class ExportedMessage(msgspec.Struct, kw_only=True):
    payload_bytes: int
    redelivered: bool
    exchange: str
    routing_key: str
    message_count: int
    # The management API renders a message without properties as an empty JSON list.
    properties: MessageProperties | list[Any] = []
    payload: str
    payload_encoding: Literal["string", "base64"]

    @property
    def props(self) -> MessageProperties:
        return self.properties if isinstance(self.properties, MessageProperties) else _NO_PROPS


_NO_PROPS = MessageProperties()


class ExportedQueue(msgspec.Struct, kw_only=True):
    name: str
    vhost: str = "/"
    messages: list[ExportedMessage]


class Manifest(msgspec.Struct, kw_only=True):
    exported_at: datetime
    queues: list[ExportedQueue]


@dataclass(frozen=True)
class LoadedManifest:
    manifest: Manifest
    sha256: str

    @property
    def message_count(self) -> int:
        return sum(len(queue.messages) for queue in self.manifest.queues)


class ManifestError(Exception):
    """The manifest file cannot be read or does not have the export's shape."""


def load(path: Path) -> LoadedManifest:
    try:
        raw = path.read_bytes()
        manifest = msgspec.json.decode(raw, type=Manifest)
    except (OSError, msgspec.DecodeError) as error:
        raise ManifestError(f"{path}: {error}") from error
    return LoadedManifest(manifest=manifest, sha256=hashlib.sha256(raw).hexdigest())


def body_text(message: ExportedMessage) -> str | None:
    """The message body as text, or None when base64 or UTF-8 decoding fails."""
    if message.payload_encoding == "string":
        return message.payload
    try:
        return base64.b64decode(message.payload, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def body_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# Where the legacy publisher put the public job id: the correlation id, or the message id for
# events published without an idempotency key.
_JOB_ID_HEADERS = ("x-job-id", "job_id")


def original_job_id(message: ExportedMessage) -> UUID | None:
    props = message.props
    candidates: list[object] = [props.correlation_id]
    candidates += [props.headers.get(name) for name in _JOB_ID_HEADERS]
    candidates.append(props.message_id)
    for candidate in candidates:
        if isinstance(candidate, str):
            try:
                return UUID(candidate)
            except ValueError:
                continue
    return None
