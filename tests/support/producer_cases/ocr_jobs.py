"""The OCR jobs as producers: each decision commits with the jobs it causes.

`act` runs the handler in process against a fake OCR server started for the call; the
screenshot URL seeded by `setup` picks the fake's answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from genji_api.completions.ocr_handler import make_completion_ocr_handler
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings
from genji_api.tournaments.ocr_handler import make_tournament_ocr_handler
from genji_devstack.fake_ocr import FakeOcr

from tests.support import seed_ocr_jobs

from .case import ProducerCase, ProducerEnv


def _completion_setup(
    answer: str,
) -> Callable[[ProducerEnv], Awaitable[seed_ocr_jobs.SeededCompletion]]:
    async def setup(env: ProducerEnv) -> seed_ocr_jobs.SeededCompletion:
        await seed_ocr_jobs.bot(env.owner, env.settings.bot_user_id)
        return await seed_ocr_jobs.pending_completion(env.owner, answer)

    return setup


def _tournament_setup(
    answer: str,
) -> Callable[[ProducerEnv], Awaitable[seed_ocr_jobs.SeededTournamentCompletion]]:
    async def setup(env: ProducerEnv) -> seed_ocr_jobs.SeededTournamentCompletion:
        await seed_ocr_jobs.bot(env.owner, env.settings.bot_user_id)
        return await seed_ocr_jobs.pending_tournament_completion(env.owner, answer)

    return setup


@asynccontextmanager
async def _worker_side(env: ProducerEnv) -> AsyncIterator[tuple[Database, ApiSettings]]:
    """A pool of the API worker's own and settings pointing at a fake OCR server.

    The served app's pool belongs to the test client's event loop, so the handler, which runs
    on the test's loop as it would in the worker, gets a pool of its own on the same database.
    """
    with FakeOcr() as ocr:
        pool = await create_pool(env.settings.database_url, max_size=2)
        try:
            yield Database(pool), dataclasses.replace(env.settings, ocr_url=ocr.url)
        finally:
            await pool.close()


async def _completion_act(env: ProducerEnv, seeded: seed_ocr_jobs.SeededCompletion) -> None:
    async with _worker_side(env) as (database, settings):
        handler = make_completion_ocr_handler(database, settings)
        await handler(seeded.event(), seeded.context())


async def _tournament_act(
    env: ProducerEnv, seeded: seed_ocr_jobs.SeededTournamentCompletion
) -> None:
    async with _worker_side(env) as (database, settings):
        handler = make_tournament_ocr_handler(database, settings)
        await handler(seeded.event(), seeded.context())


CASES = [
    ProducerCase(
        name="ocr-match",
        events=frozenset({"api.completion.verification"}),
        setup=_completion_setup("ocr-match"),
        act=_completion_act,
    ),
    ProducerCase(
        name="ocr-mismatch",
        events=frozenset(
            {
                "api.completion.autoverification.failed",
                "api.completion.submission",
                "api.notification.delivery",
            }
        ),
        setup=_completion_setup("ocr-mismatch"),
        act=_completion_act,
    ),
    ProducerCase(
        name="ocr-error",
        events=frozenset({"api.completion.submission", "api.notification.delivery"}),
        setup=_completion_setup("ocr-error"),
        act=_completion_act,
    ),
    ProducerCase(
        name="tournament-ocr-match",
        events=frozenset({"api.tournament.verification.changed", "api.xp.grant"}),
        setup=_tournament_setup("ocr-match"),
        act=_tournament_act,
    ),
    ProducerCase(
        name="tournament-ocr-mismatch",
        events=frozenset({"api.tournament.completion.created", "api.notification.delivery"}),
        setup=_tournament_setup("ocr-mismatch"),
        act=_tournament_act,
    ),
]
