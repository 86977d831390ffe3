"""Start-up restoration of persistent views: what the API lists from the real database, one view
per message however restoration and creation handlers interleave, resolved messages never
restored, and no waiting for the queue's backlog."""

from __future__ import annotations

import asyncio
import itertools

import asyncpg
import pytest
from genji_bot.api import ApiClient
from genji_bot.views.registry import ViewRegistry
from genji_bot.views.restore import restore_views, restore_when_ready
from genji_sdk.failures import ConfigurationFailure
from genji_sdk.views import OpenView

from tests.bot.bot_stack import BotStack
from tests.support import seed, seed_completions, seed_map_edits, seed_maps
from tests.support.secrets_seen import issue_token

from .sinks import RecordingSink

pytestmark = pytest.mark.queue

_messages = itertools.count(1)


def new_message_id() -> int:
    return 3 * 10**18 + next(_messages)


async def seed_open_and_closed(owner: asyncpg.Connection) -> set[OpenView]:
    """One open record of each kind with a posted message, and records that must not be
    listed: no message yet, already resolved."""
    player = await seed.user(owner)
    map_id, code = await seed.game_map(owner)
    pending = await seed_completions.pending_completion(
        owner, map_id, player, verification_id=(card := new_message_id())
    )
    # Not yet posted, and already verdicted: neither has a live card.
    await seed_completions.pending_completion(owner, map_id, await seed.user(owner))
    verdicted = await seed_completions.pending_completion(
        owner, map_id, await seed.user(owner), verification_id=new_message_id()
    )
    await owner.execute(
        "UPDATE core.completions SET verified = true, verified_by = user_id WHERE id = $1",
        verdicted,
    )

    open_playtest = await seed_maps.playtest(owner)
    await seed_maps.playtest(owner, bound=False)
    closed = await seed_maps.playtest(owner)
    await owner.execute(
        "UPDATE playtests.meta SET completed = true WHERE id = $1", closed.playtest_id
    )

    edit = await seed_map_edits.edit_request(owner, map_id, code, player, {"checkpoints": 3})
    await owner.execute(
        "UPDATE maps.edit_requests SET message_id = $2 WHERE id = $1",
        edit,
        edit_card := new_message_id(),
    )
    other_map, other_code = await seed.game_map(owner)
    resolved = await seed_map_edits.edit_request(
        owner, other_map, other_code, player, {"checkpoints": 5}
    )
    await owner.execute(
        "UPDATE maps.edit_requests SET message_id = $2, accepted = false, resolved_at = now(), "
        "resolved_by = created_by WHERE id = $1",
        resolved,
        new_message_id(),
    )
    await seed_map_edits.edit_request(owner, other_map, other_code, player, {"checkpoints": 4})
    return {
        OpenView(kind="completion.verification", entity_id=pending, message_id=card),
        OpenView(
            kind="playtest.thread",
            entity_id=open_playtest.playtest_id,
            message_id=open_playtest.thread_id,
        ),
        OpenView(kind="map_edit.verification", entity_id=edit, message_id=edit_card),
    }


def bot_client(stack: BotStack) -> ApiClient:
    return ApiClient(stack.url, stack.bot_key, timeout=10)


async def test_restore_registers_one_view_per_open_message_with_a_real_id(
    stack: BotStack,
) -> None:
    expected = await seed_open_and_closed(stack.owner)
    sink = RecordingSink()
    registry = ViewRegistry(sink)
    api = bot_client(stack)
    try:
        report = await restore_views(api, registry)
        again = await restore_views(api, registry)
    finally:
        await api.aclose()
    assert set(sink.attached) == expected
    assert len(sink.attached) == len(expected)
    assert (report.listed, report.registered, report.duplicate) == (3, 3, 0)
    assert (again.registered, again.duplicate) == (0, 3)


async def test_a_view_registered_by_its_creation_handler_is_not_registered_again(
    stack: BotStack,
) -> None:
    expected = await seed_open_and_closed(stack.owner)
    created = next(view for view in expected if view.kind == "completion.verification")
    sink = RecordingSink()
    registry = ViewRegistry(sink)
    assert registry.register(created) == "registered"
    api = bot_client(stack)
    try:
        report = await restore_views(api, registry)
    finally:
        await api.aclose()
    assert [view.message_id for view in sink.attached].count(created.message_id) == 1
    assert set(sink.attached) == expected
    assert (report.registered, report.duplicate) == (2, 1)


async def test_a_message_resolved_while_restoring_is_not_brought_back(stack: BotStack) -> None:
    expected = await seed_open_and_closed(stack.owner)
    resolved = next(view for view in expected if view.kind == "map_edit.verification")
    sink = RecordingSink()
    registry = ViewRegistry(sink)
    # The resolution handler ran after the API's list was read but before it was registered.
    registry.retire(resolved.message_id)
    api = bot_client(stack)
    try:
        report = await restore_views(api, registry)
    finally:
        await api.aclose()
    assert resolved.message_id not in sink.live()
    assert resolved.message_id not in registry
    assert report.retired == 1
    assert set(sink.live().values()) == expected - {resolved}


async def test_retiring_a_registered_view_detaches_it(stack: BotStack) -> None:
    expected = await seed_open_and_closed(stack.owner)
    sink = RecordingSink()
    registry = ViewRegistry(sink)
    api = bot_client(stack)
    try:
        await restore_views(api, registry)
    finally:
        await api.aclose()
    playtest = next(view for view in expected if view.kind == "playtest.thread")
    assert registry.retire(playtest.message_id) == playtest
    assert sink.detached == [playtest]
    assert registry.register(playtest) == "retired"
    assert set(sink.live().values()) == expected - {playtest}


async def test_views_registered_before_the_sink_is_connected_reach_it_once(
    stack: BotStack,
) -> None:
    expected = await seed_open_and_closed(stack.owner)
    registry = ViewRegistry()
    api = bot_client(stack)
    try:
        await restore_views(api, registry)
    finally:
        await api.aclose()
    sink = RecordingSink()
    registry.connect(sink)
    assert sorted(sink.attached, key=lambda v: v.message_id) == sorted(
        expected, key=lambda v: v.message_id
    )


async def test_restore_waits_for_discord_but_not_for_the_queue_backlog(stack: BotStack) -> None:
    player = await seed.user(stack.owner)
    _, code = await seed.game_map(stack.owner)
    created = await stack.http.post(
        "/maps/map-edits/",
        json={
            "code": code,
            "proposed_changes": {"checkpoints": 7},
            "reason": "More checkpoints",
            "created_by": player,
        },
    )
    assert created.status_code == 201, created.text
    edit_id, job_id = created.json()["id"], created.json()["job_status"]["id"]
    await stack.owner.execute(
        "UPDATE maps.edit_requests SET message_id = $2 WHERE id = $1",
        edit_id,
        card := new_message_id(),
    )
    ready = asyncio.Event()
    waiting = asyncio.Event()

    async def discord_ready() -> None:
        waiting.set()
        await ready.wait()

    sink = RecordingSink()
    api = bot_client(stack)
    try:
        restore = asyncio.create_task(restore_when_ready(api, ViewRegistry(sink), discord_ready))
        await asyncio.wait_for(waiting.wait(), 10)
        assert sink.attached == []
        ready.set()
        report = await asyncio.wait_for(restore, 10)
    finally:
        await api.aclose()
    assert report.registered == 1
    assert sink.attached == [
        OpenView(kind="map_edit.verification", entity_id=edit_id, message_id=card)
    ]
    # No bot worker ran: the edit's creation job is still waiting in the queue.
    assert await stack.status(job_id) == "queued"


async def test_the_views_route_needs_the_read_scopes(stack: BotStack) -> None:
    narrow = await issue_token(
        stack.owner, "narrow", superuser=False, scopes=frozenset({"completions:read"})
    )
    client = ApiClient(stack.url, narrow, timeout=10)
    try:
        with pytest.raises(ConfigurationFailure, match="refused the bot's key"):
            await restore_views(client, ViewRegistry())
    finally:
        await client.aclose()
