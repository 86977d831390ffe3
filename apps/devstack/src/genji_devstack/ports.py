"""A free local TCP port for a child process to listen on."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on now. The socket closes before the child binds it, so another
    process could take it in between; on a development machine that race is rare enough."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
