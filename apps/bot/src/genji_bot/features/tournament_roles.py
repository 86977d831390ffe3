"""Champion roles, reconciled to the category's current champion as the API reads it.

A rollover or results job names the cycles it announces, but the role goes to whoever is
champion now: an old job retried after a newer result strips nobody the newer one crowned.
Former champions lose the role, the current one gains it; a member who left the guild or whom
Discord refuses is logged and skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from genji_sdk.failures import DependencyUnavailable
from genji_sdk.tournaments import TournamentCategoryResponse

from genji_bot.consumers import JobRun
from genji_bot.effects.port import Forbidden, NotFound, NotSent, Refused

log = logging.getLogger("genji.bot.tournaments")


def champion_role_effect(edition_id: int, category_id: int) -> str:
    return f"champion-role:{edition_id}:{category_id}"


async def _set(job: JobRun, user_id: int, role_id: int, *, holds: bool) -> None:
    try:
        roles = await job.port.member_roles(user_id)
        if roles is None or (role_id in roles) == holds:
            return
        add = frozenset({role_id}) if holds else frozenset()
        remove = frozenset() if holds else frozenset({role_id})
        await job.port.set_member_roles(user_id, add=add, remove=remove)
    except NotSent as error:
        raise DependencyUnavailable("discord", str(error)) from error
    except (Forbidden, Refused, NotFound) as error:
        log.warning("champion role %d of user %d not changed: %s", role_id, user_id, error)


async def reconcile_champion(
    job: JobRun, edition_id: int, category: TournamentCategoryResponse, announced: Iterable[int]
) -> None:
    """Make the current champion the only holder among former and announced winners."""
    role_id = category.champion_role_id
    if role_id is None:
        log.info("tournament category %d has no champion role", category.id)
        return
    effect = champion_role_effect(edition_id, category.id)
    champion = category.champion_user_id
    others = {*category.former_champion_user_ids, *announced} - {champion}
    await job.step(effect)
    for user_id in sorted(others):
        await _set(job, user_id, role_id, holds=False)
    if champion is not None:
        await _set(job, champion, role_id, holds=True)
    await job.step(effect, "after")
