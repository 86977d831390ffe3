"""One child of the local stack (genji_devstack.child_process): its stderr passed through to
ours while the last lines are kept for the message that says why it ended."""

from __future__ import annotations

from dataclasses import dataclass

from genji_devstack.child_process import ChildProcess


@dataclass
class Child(ChildProcess):
    service: bool = False
    """One the others use (the fake OCR, the Discord stand-in): it stops after them."""
    restart_note: str | None = None
    """Printed whenever the child is restarted."""
