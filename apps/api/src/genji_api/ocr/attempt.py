"""The shape of every OCR job: read, ask OCR outside any transaction, decide under a row lock.

1. Read the submission and its user's names on a pooled connection; stop when nothing is left
   to decide (resolved, superseded, or a decision already recorded).
2. Ask the OCR service with no transaction open (bounded by the settings' timeout).
3. In one transaction, lock the submission, check again, and record the decision together with
   its consequences. A retry after that commit finds the decision and does nothing; a failed
   commit raises, so the job is retried.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

import asyncpg

from genji_api.database import Database
from genji_api.ocr.decision import OcrDecision, decide_by_ocr
from genji_api.ocr.names import user_names
from genji_api.settings import ApiSettings

log = logging.getLogger("genji.api")


class OcrSubmission(Protocol):
    @property
    def user_id(self) -> int: ...
    @property
    def map_code(self) -> str: ...
    @property
    def time(self) -> float: ...
    @property
    def screenshot(self) -> str: ...


S = TypeVar("S", bound=OcrSubmission)

Load = Callable[[asyncpg.Connection], Awaitable[S | None]]


async def attempt_ocr_decision(
    database: Database,
    settings: ApiSettings,
    *,
    label: str,
    read: Load[S],
    lock: Load[S],
    nothing_to_do: Callable[[S | None], str | None],
    record: Callable[[asyncpg.Connection, S, OcrDecision, list[str]], Awaitable[None]],
) -> OcrDecision | None:
    """The committed decision, or None when there was nothing (left) to decide.

    `label` names the submission in logs; `nothing_to_do` says why a submission needs no
    decision (None when it does); `record` writes the decision and its consequences.
    """

    async def load(conn: asyncpg.Connection) -> tuple[S | None, list[str]]:
        submission = await read(conn)
        names = [] if submission is None else await user_names(conn, submission.user_id)
        return submission, names

    submission, names = await database.read(load)
    why = nothing_to_do(submission)
    if submission is None or why is not None:
        log.info("%s: no OCR verification, %s", label, why)
        return None

    decision = await decide_by_ocr(
        settings,
        screenshot=submission.screenshot,
        code=submission.map_code,
        time=submission.time,
        names=names,
    )

    async def decide(conn: asyncpg.Connection) -> bool:
        current = await lock(conn)
        why = nothing_to_do(current)
        if current is None or why is not None:
            log.info("%s: OCR decision dropped, %s meanwhile", label, why)
            return False
        await record(conn, current, decision, names)
        return True

    if not await database.transaction(decide):
        return None
    log.info("%s: OCR decision %s", label, decision.outcome)
    return decision
