"""The nonce of a bound send: the same for every attempt of one intent, new for the next intent.

Discord deduplicates message creates by nonce: with `enforce_nonce`, a create whose nonce the
same author used in the same channel within the last few minutes returns that message instead
of posting another. Deriving the nonce from the binding (job, effect, destination) and the time
its intent was recorded makes every repeat of that send carry it, across processes and
restarts, while an operator's `resend` (which removes the binding, so the next intent is new)
gets a fresh one. Discord accepts at most 25 characters.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import datetime
from uuid import UUID

NONCE_LENGTH = 25


def send_nonce(job_id: UUID, effect: str, destination: str, intent_at: datetime) -> str:
    identity = f"{job_id}|{effect}|{destination}|{intent_at.isoformat()}".encode()
    digest = base64.b32encode(hashlib.sha256(identity).digest()).decode().rstrip("=").lower()
    return digest[:NONCE_LENGTH]
