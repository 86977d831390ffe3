"""Producing completion work through the API's routes, and reading its durable results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from genji_bot.settings import Channels

from tests.support import seed
from tests.support import seed_completions as sc

from .bot_stack import BotStack

CHANNELS = Channels()
VERIFICATION_QUEUE = f"channel:{CHANNELS.verification_queue}"
COMPLETIONS = f"channel:{CHANNELS.completions}"
XP_CHANNEL = f"channel:{CHANNELS.xp}"
JOB_ALERTS = f"channel:{CHANNELS.job_alerts}"


@dataclass(frozen=True)
class Run:
    map_id: int
    code: str
    user_id: int
    moderator: int


async def player_on_new_map(stack: BotStack) -> Run:
    """A player and a moderator, and an official approved Hanamura map (difficulty Hard +)."""
    map_id, code = await seed.game_map(stack.owner)
    return Run(map_id, code, await seed.user(stack.owner), await seed.user(stack.owner))


async def submit(stack: BotStack, run: Run, time: float, *, video: bool = True) -> dict[str, Any]:
    """POST /completions; with a video the run goes to manual review (its job in job_status)."""
    response = await stack.http.post(
        "/completions/",
        json={
            "code": run.code,
            "user_id": run.user_id,
            "time": time,
            "screenshot": sc.SCREENSHOT,
            "video": sc.VIDEO if video else None,
        },
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def verdict(
    stack: BotStack, completion_id: int, run: Run, *, verified: bool, reason: str | None = None
) -> str:
    """PUT /completions/{id}/verification; the verdict job's id."""
    response = await stack.http.put(
        f"/completions/{completion_id}/verification",
        json={"verified": verified, "verified_by": run.moderator, "reason": reason},
    )
    assert response.status_code == 200, response.text
    job_id: str = response.json()["id"]
    return job_id


async def pending_run(stack: BotStack, run: Run, time: float = 100.0) -> int:
    """A run with a video waiting for review (seeded; its review card is not posted)."""
    completion_id = await sc.pending_completion(
        stack.owner, run.map_id, run.user_id, time=time, video=sc.VIDEO
    )
    return completion_id


async def completion_row(stack: BotStack, completion_id: int) -> dict[str, Any]:
    row = await stack.owner.fetchrow(
        "SELECT verified, verified_by, verification_id, message_id, wr_xp_check "
        "FROM core.completions WHERE id = $1",
        completion_id,
    )
    assert row is not None
    return dict(row)


async def ledgers(stack: BotStack, run: Run) -> dict[str, Any]:
    """Every durable result a verdict workflow can leave for the run's player, once the work
    it caused downstream (its XP grant's consumer) has settled too."""
    await stack.until_quiet()
    owner = stack.owner
    xp = await owner.fetch(
        "SELECT type, grant_key FROM lootbox.xp_grants WHERE user_id = $1 ORDER BY id",
        run.user_id,
    )
    newsfeed = await owner.fetch(
        "SELECT event_type, count(*) AS n FROM public.newsfeed GROUP BY event_type"
    )
    notifications = await owner.fetch(
        "SELECT event_type, count(*) AS n FROM notifications.events WHERE user_id = $1 "
        "GROUP BY event_type",
        run.user_id,
    )
    return {
        "xp": [(r["type"], r["grant_key"]) for r in xp],
        "xp_total": await owner.fetchval(
            "SELECT amount FROM lootbox.xp WHERE user_id = $1", run.user_id
        ),
        "newsfeed": {r["event_type"]: r["n"] for r in newsfeed},
        "notifications": {r["event_type"]: r["n"] for r in notifications},
        "mastery": await owner.fetchval(
            "SELECT level FROM maps.mastery WHERE user_id = $1 AND map_name = 'Hanamura'",
            run.user_id,
        ),
    }


async def receipts(stack: BotStack, job_id: str) -> dict[str, int]:
    """The job's effect receipts: effect key -> rows (one each when nothing repeated)."""
    rows = await stack.owner.fetch(
        "SELECT effect_key, count(*) AS n FROM effect_receipts "
        "WHERE job_id = $1 AND completed_at IS NOT NULL GROUP BY effect_key",
        job_id,
    )
    return {r["effect_key"]: r["n"] for r in rows}


async def bindings(stack: BotStack, job_id: str) -> dict[str, str]:
    rows = await stack.owner.fetch(
        "SELECT effect_key, destination, state FROM effect_bindings WHERE job_id = $1", job_id
    )
    return {f"{r['effect_key']}@{r['destination']}": r["state"] for r in rows}


def sends_of(stack: BotStack, job_id: str) -> dict[str, int]:
    """Messages the job delivered: effect key -> how many times."""
    counts: dict[str, int] = {}
    for entry in stack.recorder.sends(job_id=job_id):
        counts[entry["effect"]] = counts.get(entry["effect"], 0) + 1
    return counts


def first_world_record(run: Run) -> dict[str, Any]:
    """The ledgers after the player's first verified run on a fresh official map: world-record
    XP, the record and role newsfeed entries, the verdict, mastery and role notifications, and
    the XP grant consumer's notice."""
    return {
        "xp": [("World Record", f"world-record:{run.map_id}:{run.user_id}")],
        "xp_total": 50,
        "newsfeed": {"record": 1, "role": 1},
        "notifications": {
            "verification_approved": 1,
            "mastery_earned": 1,
            "skill_role_update": 1,
            "xp_gain": 1,
        },
        "mastery": "Bronze",
    }


VERIFIED_RECEIPTS = {
    "notification:verification": 1,
    "xp:verification": 1,
    "newsfeed:record": 1,
    "mastery:recompute": 1,
    "notification:mastery": 1,
    "newsfeed:role:Pro": 1,
    "notification:skill-role:Pro": 1,
}
VERIFIED_SENDS = {"card:completion": 1, "card:mastery": 1}
