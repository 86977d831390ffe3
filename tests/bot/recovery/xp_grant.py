"""An XP grant produced through the real route, and what the bot did for it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tests.support import seed

from .recovery_stack import RecoveryStack

START_XP = 110
AMOUNT = 20
"""110 -> 130 stays within one rank: the bot's only effects are the xp_gain notification (an
API mutation guarded by its receipt) and then the post in the XP channel."""
NOTIFY = "notification:xp_gain"
SEND = "message:xp"
FAIL_SEND = f"api.xp.grant:{SEND}"


@dataclass(frozen=True)
class Grant:
    user_id: int
    job_id: str
    grant_id: int


async def grant_xp(recovery: RecoveryStack) -> Grant:
    """POST /lootbox/users/{id}/xp for a user holding START_XP."""
    owner = recovery.owner
    user_id = await seed.user(owner)
    await owner.execute(
        "INSERT INTO lootbox.xp (user_id, amount) VALUES ($1, $2)", user_id, START_XP
    )
    response = await recovery.http.post(
        f"/lootbox/users/{user_id}/xp", json={"amount": AMOUNT, "type": "Other"}
    )
    assert response.status_code == 201, response.text
    grant_id = await owner.fetchval("SELECT id FROM lootbox.xp_grants WHERE user_id = $1", user_id)
    return Grant(user_id, response.json()["job_status"]["id"], grant_id)


async def grant_rows(recovery: RecoveryStack, grant: Grant) -> tuple[int, int]:
    """(XP grants of the user, the user's XP total)."""
    row = await recovery.owner.fetchrow(
        "SELECT (SELECT count(*) FROM lootbox.xp_grants WHERE user_id = $1) AS grants, "
        "(SELECT amount FROM lootbox.xp WHERE user_id = $1) AS total",
        grant.user_id,
    )
    assert row is not None
    return row["grants"], row["total"]


async def xp_gain_notifications(recovery: RecoveryStack, grant: Grant) -> int:
    count: int = await recovery.owner.fetchval(
        "SELECT count(*) FROM notifications.events WHERE user_id = $1 AND event_type = 'xp_gain'",
        grant.user_id,
    )
    return count


def sends(recovery: RecoveryStack, grant: Grant) -> Counter[tuple[str, str]]:
    """(effect, destination) -> messages the grant's job delivered. The operator alerts about
    the job (event job.alert) are the alert supervisor's, not the job's, and are not counted."""
    return Counter(
        (s["effect"], s["destination"])
        for s in recovery.bots.recorder.sends(job_id=grant.job_id)
        if s["event"] != "job.alert"
    )


def xp_channel(recovery: RecoveryStack) -> str:
    return f"channel:{recovery.bots.settings.channels.xp}"
