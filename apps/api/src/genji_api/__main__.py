"""`python -m genji_api`: the HTTP API (uvicorn) with the API worker in the same process.

API_HOST / API_PORT choose where it listens (127.0.0.1:8000); GENJI_API_WORKER=0 serves HTTP
only. A worker that dies takes the process down, so its manager restarts it; a missing or
malformed setting (GENJI_QUEUE_* included), or a GENJI_* name the project does not know (the
message names the nearest known one), exits 2 at once, which a restart does not fix.
SENTRY_DSN turns on Sentry (genji_worker.sentry_setup). GENJI_LOG_FORMAT=text|json chooses the
log format (genji_worker.log_setup) of the process and of uvicorn's own lines.
"""

from __future__ import annotations

import os
import sys

import uvicorn
from genji_worker.genji_names import unknown_genji_setting
from genji_worker.log_setup import LogFormatError, setup_logging
from genji_worker.process import EXIT_LOGIN, settings_problem
from genji_worker.sentry_setup import init_sentry

from genji_api.app import create_app
from genji_api.http.access_log import quiet_routine_polls
from genji_api.settings import SettingsError, settings_from_env


def main() -> int:
    try:
        setup_logging()
        # Before the other settings: a mistyped name is often why one of them seems missing.
        unknown = unknown_genji_setting(os.environ)
        if unknown:
            raise SettingsError(unknown)
        settings = settings_from_env()
    except (LogFormatError, SettingsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_LOGIN
    problem = settings_problem() if settings.run_worker else None
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_LOGIN
    quiet_routine_polls()
    init_sentry("api")
    # No log_config: uvicorn's loggers keep the format setup_logging gave them.
    uvicorn.run(
        create_app(settings),
        host=os.environ.get("API_HOST", "127.0.0.1"),
        port=int(os.environ.get("API_PORT", "8000")),
        log_config=None,
        timeout_graceful_shutdown=45,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
