"""The recorder reads history as the Discord port does: the first RECENT_LIMIT messages after a
send's intent, so a message sent right after its intent is found however many followed it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from genji_bot.effects.port import RECENT_LIMIT, Channel, Outgoing
from genji_devstack.recorder_port import RecorderPort

CHANNEL = Channel(10**18 + 8)


async def test_a_message_followed_by_a_full_page_is_still_found(tmp_path: Path) -> None:
    port = RecorderPort(tmp_path)
    intent_at = datetime.now(UTC)
    first = await port.send(CHANNEL, Outgoing(content="the reply whose id was lost"))
    for n in range(RECENT_LIMIT + 10):
        await port.send(CHANNEL, Outgoing(content=f"later alert {n}"))
    seen = await port.recent(CHANNEL, intent_at)
    assert len(seen) == RECENT_LIMIT
    assert first in [item.sent for item in seen]
    assert [item.created_at for item in seen] == sorted(
        (item.created_at for item in seen), reverse=True
    )
