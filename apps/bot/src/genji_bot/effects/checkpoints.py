"""Points around each effect where an observer may act: inert in production.

The recorder (genji_devstack.recorder_port) implements `Checkpoints` to log every boundary and to
fail, hang or kill the process at a chosen one, so fault tests can stop a handler exactly
between two effects.
"""

from __future__ import annotations

from typing import Literal, Protocol

from genji_sdk import JobContext

Stage = Literal["before", "after"]


class Checkpoints(Protocol):
    async def reached(self, context: JobContext, effect: str, stage: Stage) -> None: ...


class NoCheckpoints:
    async def reached(self, context: JobContext, effect: str, stage: Stage) -> None:
        return None
