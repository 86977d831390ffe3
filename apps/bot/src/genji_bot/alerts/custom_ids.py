"""The versioned custom ids of the alert card's controls. A button's id names the job and the
generation it was rendered for; the callback re-reads the job and never trusts either as state."""

from __future__ import annotations

import re
from dataclasses import dataclass
from uuid import UUID

RETRY_PATTERN = r"job:retry:v1:(?P<job>[0-9a-f-]{36}):(?P<generation>[0-9]{1,9})"
DETAILS_PATTERN = r"job:details:v1:(?P<job>[0-9a-f-]{36})"


@dataclass(frozen=True)
class RetryControl:
    job_id: UUID
    generation: int

    @property
    def custom_id(self) -> str:
        return f"job:retry:v1:{self.job_id}:{self.generation}"

    @classmethod
    def parse(cls, custom_id: str) -> RetryControl | None:
        match = re.fullmatch(RETRY_PATTERN, custom_id)
        if match is None:
            return None
        return cls(UUID(match["job"]), int(match["generation"]))


@dataclass(frozen=True)
class DetailsControl:
    job_id: UUID

    @property
    def custom_id(self) -> str:
        return f"job:details:v1:{self.job_id}"

    @classmethod
    def parse(cls, custom_id: str) -> DetailsControl | None:
        match = re.fullmatch(DETAILS_PATTERN, custom_id)
        if match is None:
            return None
        return cls(UUID(match["job"]))
