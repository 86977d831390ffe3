"""Queue consumers of the newsfeed feature: api.newsfeed.create.

The entry is read from the API (a missing one is logged and dropped). Announcements that came
from Discord are not posted again. Guide and map edit entries of a map that is in playtest go
into its playtest thread, whose starter card is then refreshed (an edit, marked as its own step
`thread-view:<thread id>`); every other entry goes to the newsfeed channel. The post is a send
bound by the newsfeed entry and its destination (`newsfeed:<id>`), so a replay reuses it.
"""

from __future__ import annotations

import logging
from typing import Any

from genji_sdk.maps import MapPlaytestView
from genji_sdk.newsfeed import NewsfeedEntryResponse
from genji_sdk.payloads import NewsfeedDispatchEvent
from genji_sdk.playtests import PlaytestStateResponse

from genji_bot.api import ApiNotFound
from genji_bot.consumers import JobRun, queue_consumer
from genji_bot.effects.port import Channel, NotFound
from genji_bot.features.newsfeed_cards import newsfeed_card
from genji_bot.features.playtest_cards import playtest_view

log = logging.getLogger("genji.bot.newsfeed")

IN_PLAYTEST = "In Progress"
_THREAD_TYPES = frozenset({"map_edit", "guide"})


def _map_code(entry: dict[str, Any]) -> str:
    """A map edit that changed the code is about the map under its new code."""
    change = entry.get("changes", {}).get("code") if entry["type"] == "map_edit" else None
    if isinstance(change, list) and len(change) == 2 and change[1]:
        return str(change[1])
    return str(entry["code"])


async def _playtest_thread(job: JobRun, entry: dict[str, Any]) -> MapPlaytestView | None:
    if entry["type"] not in _THREAD_TYPES:
        return None
    try:
        view: MapPlaytestView = await job.api.get(
            f"/maps/{_map_code(entry)}/playtest-view", MapPlaytestView
        )
    except ApiNotFound:
        return None
    if view.playtesting != IN_PLAYTEST or view.thread_id is None:
        return None
    return view


async def _refresh_starter(job: JobRun, view: MapPlaytestView) -> None:
    assert view.thread_id is not None
    effect = f"thread-view:{view.thread_id}"
    await job.step(effect)
    try:
        # A forum thread's starter message has the thread's id.
        state: PlaytestStateResponse = await job.api.get(
            f"/maps/playtests/threads/{view.thread_id}", PlaytestStateResponse
        )
        await job.port.edit(view.thread_id, view.thread_id, playtest_view(state))
    except NotFound:
        log.warning("playtest thread %s has no starter message to refresh", view.thread_id)
    await job.step(effect, "after")


@queue_consumer(NewsfeedDispatchEvent)
async def newsfeed_created(event: NewsfeedDispatchEvent, job: JobRun) -> None:
    try:
        found: NewsfeedEntryResponse = await job.api.get(
            f"/newsfeed/{event.newsfeed_id}", NewsfeedEntryResponse
        )
    except ApiNotFound:
        log.warning("newsfeed entry %s does not exist; nothing to post", event.newsfeed_id)
        return
    entry = found.payload
    if entry.get("type") == "announcement" and entry.get("from_discord"):
        return
    card = newsfeed_card(entry)
    effect = f"newsfeed:{event.newsfeed_id}"
    view = await _playtest_thread(job, entry)
    if view is None:
        await job.send(effect, Channel(job.settings.channels.newsfeed), card)
        return
    assert view.thread_id is not None
    await job.send(effect, Channel(view.thread_id), card)
    await _refresh_starter(job, view)
