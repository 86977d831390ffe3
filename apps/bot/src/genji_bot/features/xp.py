"""Queue consumers of the xp feature: api.xp.grant.

One grant's effects, each once per job (a replay reuses what already happened):
- the xp_gain notification (`notification:xp_gain`) and the xp channel post (`message:xp`);
- on a prestige change 15 lootbox keys (`keys:prestige:1` .. `keys:prestige:15`), on any other
  rank change one key (`keys:rank:<new rank>`); each key is item n of the grant
  `xp:<grant id>:prestige|rank`, which lootbox.user_keys holds at most once;
- the lootbox_earned and rank_up / prestige notifications and the rank post;
- rank and prestige roles, reconciled to the user's current total read from the API, so a late
  retry of an older grant cannot put back an older rank.
Users who are not guild members get nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from genji_sdk.lootbox import KeyGrantResponse, XpTier, XpTierChange
from genji_sdk.notifications import PreferenceResponse
from genji_sdk.payloads import NotificationEventType, XpGrantEvent

from genji_bot.consumers import JobRun, queue_consumer
from genji_bot.effects.port import Channel
from genji_bot.features import xp_cards

log = logging.getLogger("genji.bot.xp")

PRESTIGE_KEYS = 15


async def _pings(job: JobRun, user_id: int, event_type: NotificationEventType) -> bool:
    """Whether the user wants to be mentioned for this event type."""
    preference: PreferenceResponse = await job.api.get(
        f"/notifications/users/{user_id}/preferences/{event_type}", PreferenceResponse
    )
    return preference.channels.get("discord_ping", False)


async def _notify(
    job: JobRun,
    user_id: int,
    event_type: NotificationEventType,
    text: tuple[str, str],
    metadata: dict[str, Any],
) -> None:
    title, body = text
    await job.api.effect(
        "POST",
        "/notifications/events",
        f"notification:{event_type}",
        json={
            "user_id": user_id,
            "event_type": event_type,
            "title": title,
            "body": body,
            "metadata": metadata,
        },
    )


async def _grant_keys(job: JobRun, grant: XpGrantEvent, kind: str, qualifiers: list[int]) -> None:
    for item, qualifier in enumerate(qualifiers, start=1):
        await job.api.effect(
            "POST",
            f"/lootbox/users/{grant.user_id}/keys",
            f"keys:{kind}:{qualifier}",
            json={"grant_key": f"xp:{grant.grant_id}:{kind}", "item": item},
            type=KeyGrantResponse,
        )


async def _reconcile_roles(job: JobRun, user_id: int) -> None:
    current: XpTier = await job.api.get(f"/lootbox/users/{user_id}/tier", XpTier)
    roles = job.settings.rank_roles
    wanted = {roles.main_tiers[current.main_tier]}
    if current.prestige > 0 and roles.prestige:
        wanted.add(roles.prestige[min(current.prestige, len(roles.prestige)) - 1])
    await job.step("roles:rank")
    held = await job.port.member_roles(user_id)
    if held is not None:
        add = frozenset(wanted) - held
        remove = (held & roles.managed) - frozenset(wanted)
        if add or remove:
            await job.port.set_member_roles(user_id, add=add, remove=remove)
    await job.step("roles:rank", "after")


@queue_consumer(XpGrantEvent)
async def xp_granted(grant: XpGrantEvent, job: JobRun) -> None:
    if await job.port.member_roles(grant.user_id) is None:
        log.info("grant %s: user %s is not a guild member; skipped", grant.grant_id, grant.user_id)
        return
    metadata = {"grant_id": grant.grant_id}
    xp_channel = Channel(job.settings.channels.xp)

    await _notify(job, grant.user_id, "xp_gain", xp_cards.xp_gain_text(grant), metadata)
    mention = await _pings(job, grant.user_id, "xp_gain")
    await job.send("message:xp", xp_channel, xp_cards.xp_gain(grant, mention=mention))

    change: XpTierChange = await job.api.get(
        "/lootbox/xp/tier",
        XpTierChange,
        params={"old_xp": grant.previous_amount, "new_xp": grant.new_amount},
    )
    if change.prestige_change:
        await _grant_keys(job, grant, "prestige", list(range(1, PRESTIGE_KEYS + 1)))
        await _notify(
            job, grant.user_id, "lootbox_earned", xp_cards.lootbox_text(PRESTIGE_KEYS), metadata
        )
        level = change.new.prestige
        await _notify(job, grant.user_id, "prestige", xp_cards.prestige_text(level), metadata)
        mention = await _pings(job, grant.user_id, "prestige")
        await job.send(
            "message:prestige",
            xp_channel,
            xp_cards.prestige(grant.user_id, level, PRESTIGE_KEYS, mention=mention),
        )
    elif change.rank_change:
        await _grant_keys(job, grant, "rank", [change.new.rank])
        await _notify(job, grant.user_id, "lootbox_earned", xp_cards.lootbox_text(1), metadata)
        name = change.new.name
        await _notify(job, grant.user_id, "rank_up", xp_cards.rank_up_text(name), metadata)
        mention = await _pings(job, grant.user_id, "rank_up")
        await job.send(
            "message:rank_up", xp_channel, xp_cards.rank_up(grant.user_id, name, mention=mention)
        )
    else:
        return
    await _reconcile_roles(job, grant.user_id)
