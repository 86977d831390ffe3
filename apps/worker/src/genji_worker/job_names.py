"""How the worker's log lines name a job: its public UUID, which every `genji-jobs` command
accepts, then its event and the queue id of this execution."""

from __future__ import annotations

from uuid import UUID

import msgspec
from pgqueuer.models import Job


class _Identity(msgspec.Struct):
    job_id: UUID


_IDENTITY = msgspec.json.Decoder(_Identity)


def public_id(job: Job) -> UUID | None:
    """The job's public UUID from its envelope; None when the envelope does not carry one."""
    try:
        return _IDENTITY.decode(job.payload or b"").job_id
    except msgspec.DecodeError:
        return None


def job_name(job: Job, job_id: UUID | None = None) -> str:
    """`job <uuid> (<event>, queue id <n>)`; `job ?` when the envelope is unreadable."""
    known = job_id or public_id(job)
    return f"job {known or '?'} ({job.entrypoint}, queue id {job.id})"
