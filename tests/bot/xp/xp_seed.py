"""XP grants produced through the real route, and what one grant left behind."""

from __future__ import annotations

from dataclasses import dataclass

from tests.bot.bot_stack import BotStack
from tests.support import seed

PRESTIGE_XP = 10_000
"""100 ranks of 100 XP: the first prestige."""


@dataclass(frozen=True)
class Granted:
    user_id: int
    job_id: str
    grant_id: int


async def grant_from(stack: BotStack, start: int, amount: int) -> Granted:
    """A user holding `start` XP receives `amount` through POST /lootbox/users/{id}/xp."""
    user_id = await seed.user(stack.owner)
    if start:
        await stack.owner.execute(
            "INSERT INTO lootbox.xp (user_id, amount) VALUES ($1, $2)", user_id, start
        )
    response = await stack.http.post(
        f"/lootbox/users/{user_id}/xp", json={"amount": amount, "type": "Other"}
    )
    assert response.status_code == 201, response.text
    job_id = response.json()["job_status"]["id"]
    grant_id = await stack.owner.fetchval(
        "SELECT id FROM lootbox.xp_grants WHERE user_id = $1", user_id
    )
    return Granted(user_id=user_id, job_id=job_id, grant_id=grant_id)


async def keys(stack: BotStack, user_id: int) -> list[tuple[str, int]]:
    rows = await stack.owner.fetch(
        "SELECT grant_key, item FROM lootbox.user_keys WHERE user_id = $1 ORDER BY grant_key, item",
        user_id,
    )
    return [(r["grant_key"], r["item"]) for r in rows]


async def notifications(stack: BotStack, user_id: int) -> list[str]:
    rows = await stack.owner.fetch(
        "SELECT event_type FROM notifications.events WHERE user_id = $1 ORDER BY event_type",
        user_id,
    )
    return [r["event_type"] for r in rows]


async def xp_total(stack: BotStack, user_id: int) -> int:
    total: int = await stack.owner.fetchval(
        "SELECT amount FROM lootbox.xp WHERE user_id = $1", user_id
    )
    return total


def sends_of(stack: BotStack, job_id: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for send in stack.recorder.sends(job_id=job_id):
        counts[send["effect"]] = counts.get(send["effect"], 0) + 1
    return counts


async def receipts(stack: BotStack, job_id: str) -> list[str]:
    rows = await stack.owner.fetch(
        "SELECT effect_key FROM effect_receipts WHERE job_id = $1 ORDER BY effect_key", job_id
    )
    return [r["effect_key"] for r in rows]
