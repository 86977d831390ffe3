"""`python -m genji_devstack.recorder_worker {bot|api}`: the production worker runtime with
stand-in handlers that only record their effects (no Discord, no domain), for lifecycle tests
and benchmarks of the queue itself.

GENJI_RECORDER_DIR names the recorder directory; GENJI_TALLY_DSN, when set, makes every job
perform one receipt-guarded mutation in that database (table effect_tally).
"""

from __future__ import annotations

import os
import sys

from genji_worker.process import run_worker_process

from genji_devstack.recorder import EffectRecorder
from genji_devstack.recorder_handlers import recorder_handlers


def main() -> int:
    owner = sys.argv[1] if len(sys.argv) > 1 else ""
    if owner not in ("bot", "api"):
        raise SystemExit("usage: python -m genji_devstack.recorder_worker {bot|api}")
    recorder = EffectRecorder(os.environ.get("GENJI_RECORDER_DIR", "/tmp/genji-effects"))
    handlers = recorder_handlers(owner, recorder, os.environ.get("GENJI_TALLY_DSN"))  # type: ignore[arg-type]
    return run_worker_process(owner, handlers)  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(main())
