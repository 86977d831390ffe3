"""The recorder's message ids are shaped like Discord's: snowflakes that fit the bigint columns
that mirror them (a verification message id, a thread id), distinct within and across sends."""

from __future__ import annotations

from pathlib import Path

from genji_bot.effects.port import Channel, NewForumThread, Outgoing
from genji_devstack.recorder_port import RecorderPort

BIGINT_MAX = 2**63 - 1


async def test_recorded_ids_are_distinct_bigint_snowflakes(tmp_path: Path) -> None:
    port = RecorderPort(tmp_path)
    ids = [
        (await port.send(Channel(10**18 + 1), Outgoing(content="x"))).message_id for _ in range(50)
    ]
    thread = await port.send(NewForumThread(10**18 + 2, "Playtest"), Outgoing(content="y"))
    ids.append(thread.message_id)
    assert all(10**18 <= message_id <= BIGINT_MAX for message_id in ids), ids
    assert len(set(ids)) == len(ids)
    assert thread.thread_id == thread.message_id
