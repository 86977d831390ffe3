"""Domain columns that mirror a completed send, written in the binding's transaction.

A mirror is registered by kind (`genji_sdk.sends.MirrorKind`), with the events whose
jobs may write it; its writer takes the entity id and the binding's ids. Features register their
mirrors here, one line each.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg
from genji_sdk.sends import MirrorKind

MirrorWriter = Callable[[asyncpg.Connection, int, "SentIds"], Awaitable[None]]


@dataclass(frozen=True)
class SentIds:
    channel_id: int | None
    message_id: int | None
    thread_id: int | None


@dataclass(frozen=True)
class MirrorSpec:
    events: frozenset[str]
    write: MirrorWriter


MIRRORS: dict[str, MirrorSpec] = {}


def register_mirror(kind: MirrorKind, events: list[str], write: MirrorWriter) -> None:
    if kind in MIRRORS:
        raise ValueError(f"mirror {kind!r} is registered twice")
    MIRRORS[kind] = MirrorSpec(frozenset(events), write)
