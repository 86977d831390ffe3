"""Where this pytest process stands in a pytest-xdist run.

Under `-n N` a controller process schedules the tests onto N worker processes, each with its
own session (and so its own PostgreSQL cluster, clone supply and registered secrets). What is
written once per run (the acceptance reports, the final credential scan) belongs to the
controller; what a session keeps for itself is named after its worker.
"""

from __future__ import annotations

import os

import pytest


def worker_id() -> str | None:
    """This worker's id (gw0, gw1, ...), or None in the controller or a run without xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def is_controller(config: pytest.Config) -> bool:
    """True in the process that schedules tests onto workers (and runs none itself)."""
    return config.pluginmanager.has_plugin("dsession")
