"""`python -m genji_worker {bot|api}`: a worker whose handlers record effects (no Discord).

GENJI_RECORDER_DIR names the recorder directory; GENJI_TALLY_DSN, when set, makes every job
perform one receipt-guarded mutation in that database (table effect_tally).
"""

from __future__ import annotations

import os
import sys

from genji_worker.process import run_worker_process
from genji_worker.recorder import EffectRecorder
from genji_worker.recorder_handlers import recorder_handlers


def main() -> int:
    owner = sys.argv[1] if len(sys.argv) > 1 else ""
    if owner not in ("bot", "api"):
        raise SystemExit("usage: python -m genji_worker {bot|api}")
    recorder = EffectRecorder(os.environ.get("GENJI_RECORDER_DIR", "/tmp/genji-effects"))
    handlers = recorder_handlers(owner, recorder, os.environ.get("GENJI_TALLY_DSN"))  # type: ignore[arg-type]
    return run_worker_process(owner, handlers)  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(main())
