"""`python -m genji_api`: the HTTP API (uvicorn) with the API worker in the same process.

API_HOST / API_PORT choose where it listens (127.0.0.1:8000); GENJI_API_WORKER=0 serves HTTP
only. A worker that dies takes the process down, so its manager restarts it; a missing or
malformed setting (GENJI_QUEUE_* included) exits 2 at once, which a restart does not fix.
SENTRY_DSN turns on Sentry (genji_worker.sentry_setup).
"""

from __future__ import annotations

import logging
import os
import sys

import uvicorn
from genji_worker.process import EXIT_LOGIN, settings_problem
from genji_worker.sentry_setup import init_sentry

from genji_api.app import create_app
from genji_api.settings import SettingsError, settings_from_env


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pgqueuer").setLevel(logging.WARNING)
    try:
        settings = settings_from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_LOGIN
    problem = settings_problem() if settings.run_worker else None
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_LOGIN
    init_sentry("api")
    uvicorn.run(
        create_app(settings),
        host=os.environ.get("API_HOST", "127.0.0.1"),
        port=int(os.environ.get("API_PORT", "8000")),
        log_level="info",
        timeout_graceful_shutdown=45,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
