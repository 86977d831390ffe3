"""`python -m genji_devstack.effects_report`: every recorded Discord effect listed once, with a
destination that got two deliveries of one effect flagged as a duplicate."""

from __future__ import annotations

import subprocess
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path

from genji_bot.effects.port import Channel, DirectMessage, Outgoing
from genji_devstack.recorder_port import RecorderPort
from genji_sdk import ClaimToken, JobContext


def context(event: str) -> JobContext:
    return JobContext(
        job_id=uuid.uuid4(),
        event_name=event,
        event_key=f"{event}:1",
        attempt=1,
        retry_generation=0,
        claim=ClaimToken(0, uuid.uuid4(), datetime.now(UTC)),
    )


def report(directory: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "genji_devstack.effects_report", str(directory)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


async def test_each_recorded_effect_is_listed_once(tmp_path: Path) -> None:
    port = RecorderPort(tmp_path)
    assert report(tmp_path) == ["no Discord effects recorded"]

    xp = context("api.xp.grant")
    await port.reached(xp, "xp-message:7", "before")
    sent = await port.send(Channel(10**18 + 5), Outgoing(content="XP"))
    await port.edit(sent.channel_id, sent.message_id, Outgoing(content="XP, edited"))
    await port.reached(xp, "roles:7", "before")
    await port.set_member_roles(10**18 + 1, add=frozenset({10**18 + 9}), remove=frozenset())

    # Another job of the same event posting the same effect to the same channel is no duplicate.
    other_xp = context("api.xp.grant")
    await port.reached(other_xp, "xp-message:7", "before")
    await port.send(Channel(10**18 + 5), Outgoing(content="XP"))

    dm = context("api.notification.delivery")
    await port.reached(dm, "dm:3", "before")
    await port.send(DirectMessage(10**18 + 1), Outgoing(content="hi"))
    await port.send(DirectMessage(10**18 + 1), Outgoing(content="hi"))
    await port.delete(sent.channel_id, sent.message_id)

    lines = report(tmp_path)
    xp_jobs = sorted(str(job.job_id)[:8] for job in (xp, other_xp))
    assert lines == [
        f"send    api.notification.delivery  job {str(dm.job_id)[:8]}  dm:3  -> dm:{10**18 + 1}"
        "  x2  (DUPLICATE)",
        *(
            f"send    api.xp.grant  job {job}  xp-message:7  -> channel:{10**18 + 5}  x1"
            for job in xp_jobs
        ),
        f"edit    message {sent.message_id}  x1  by xp-message:7",
        f"delete  message {sent.message_id}  by api.notification.delivery  dm:3",
        f"roles   user {10**18 + 1}  +[{10**18 + 9}] -[]  by api.xp.grant  roles:7",
    ]


def test_a_missing_directory_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "genji_devstack.effects_report", str(tmp_path / "absent")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert not (tmp_path / "absent").exists()
