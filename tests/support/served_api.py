"""The real app served by uvicorn on a loopback port, in a thread with its own event loop.

Synchronous HTTP clients (schemathesis sends with `requests`) reach it over a real socket, and
its lifespan opens and closes the database pool as in production.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from genji_api.settings import ApiSettings

from .shared_app import lent_app, retire

STARTUP_DEADLINE = 20.0


@contextmanager
def served_api(settings: ApiSettings) -> Iterator[str]:
    """Serve the app until the block ends; yields its base URL."""
    with lent_app(settings) as app:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        try:
            end = time.monotonic() + STARTUP_DEADLINE
            while not server.started:
                if not thread.is_alive():
                    raise RuntimeError("the API server stopped during startup")
                if time.monotonic() > end:
                    raise AssertionError(f"the API server did not start in {STARTUP_DEADLINE}s")
                time.sleep(0.02)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(timeout=STARTUP_DEADLINE)
            sock.close()
            if thread.is_alive():
                retire(app)
