"""Tournament events: the manual-review card, verdicts, rollovers and deferred results.

- completion.created posts the Accept/Reject card in the verification queue; its message id is
  mirrored onto the tournament run with the send's binding, and a replay reuses it.
- verification.changed is acknowledged in the log only: verdicts post nothing.
- rollover and results reconcile each announced category's champion role to the API's current
  champion first, then post one announcement bound to the job's event identity (start, end,
  reroll and results identities stay distinct). An event that announces nothing is a no-op.
  The announcement renders only the payload and category names, never the champion state read
  at run time, so a replay's message has the fingerprint its earlier attempt sent.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from genji_sdk.payloads import (
    TournamentCompletionCreatedEvent,
    TournamentCycleCompletedEvent,
    TournamentEditionResultsEvent,
    TournamentRolloverEvent,
    TournamentVerificationChangedEvent,
)
from genji_sdk.sends import Mirror, MirrorKind
from genji_sdk.tournaments import TournamentCategoryResponse

from genji_bot.consumers import JobRun, queue_consumer
from genji_bot.effects.port import Channel
from genji_bot.features.tournament_cards import (
    results_card,
    review_card,
    rollover_announcement,
)
from genji_bot.features.tournament_roles import reconcile_champion

log = logging.getLogger("genji.bot.tournaments")

REVIEW_CARD = "verification-card"
REVIEW_MIRROR: MirrorKind = "tournament_completion.verification_message"


@queue_consumer(TournamentCompletionCreatedEvent)
async def tournament_completion_created(
    payload: TournamentCompletionCreatedEvent, job: JobRun
) -> None:
    await job.send(
        REVIEW_CARD,
        Channel(job.settings.channels.verification_queue),
        review_card(payload),
        mirror=Mirror(REVIEW_MIRROR, payload.completion_id),
    )


@queue_consumer(TournamentVerificationChangedEvent)
async def tournament_verification_changed(
    payload: TournamentVerificationChangedEvent, job: JobRun
) -> None:
    log.info(
        "tournament completion %d %s (verdict %d)",
        payload.tournament_completion_id,
        "verified" if payload.verified else "rejected",
        payload.transition_id,
    )


async def _categories(job: JobRun, ids: Sequence[int]) -> dict[int, TournamentCategoryResponse]:
    categories: dict[int, TournamentCategoryResponse] = {}
    for category_id in sorted(set(ids)):
        categories[category_id] = await job.api.get(
            f"/tournaments/categories/{category_id}", TournamentCategoryResponse
        )
    return categories


async def _champions(
    job: JobRun,
    edition_id: int,
    results: Sequence[TournamentCycleCompletedEvent],
    categories: dict[int, TournamentCategoryResponse],
) -> None:
    for result in results:
        announced = [result.winner_user_id] if result.winner_user_id is not None else []
        await reconcile_champion(job, edition_id, categories[result.category_id], announced)


@queue_consumer(TournamentRolloverEvent)
async def tournament_rollover(payload: TournamentRolloverEvent, job: JobRun) -> None:
    if not payload.results and not payload.started and not payload.results_pending:
        log.info("rollover of edition %d announces nothing", payload.edition_id)
        return
    ids = [r.category_id for r in payload.results] + [s.category_id for s in payload.started]
    categories = await _categories(job, ids)
    await _champions(job, payload.edition_id, payload.results, categories)
    await job.send(
        f"announcement:{job.context.event_key}",
        Channel(job.settings.channels.tournament_announcements),
        rollover_announcement(
            payload, job.context.event_key, categories, job.settings.tournament_ping_role_id
        ),
    )


@queue_consumer(TournamentEditionResultsEvent)
async def tournament_results(payload: TournamentEditionResultsEvent, job: JobRun) -> None:
    if not payload.results:
        log.info("results of edition %d are empty", payload.edition_id)
        return
    categories = await _categories(job, [r.category_id for r in payload.results])
    await _champions(job, payload.edition_id, payload.results, categories)
    await job.send(
        f"results-card:{job.context.event_key}",
        Channel(job.settings.channels.tournament_announcements),
        results_card(payload.results, categories, job.settings.tournament_ping_role_id),
    )
