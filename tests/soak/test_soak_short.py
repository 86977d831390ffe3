"""The short soak (`just soak --short`): the whole stack as processes on a private durable
cluster, every fault class injected once under a mixed workload reaching all 24 entrypoints
(a bot killed between an effect's commit and its job's completion among them), then the checks
from durable state: nothing lost, nothing duplicated, every job succeeded
(held ones recovered by the operator), no idle worker."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from genji_devstack.soak.faults import CLASSES
from genji_sdk import REGISTRY

# The whole stack under every fault class with the soak's own deadlines: it runs alone.
pytestmark = [pytest.mark.queue, pytest.mark.queue_fault, pytest.mark.alone]

# Only a guard against a hung run; how long the soak takes is printed, not asserted.
HANG_SECONDS = 300
ROW = re.compile(
    r"^(?P<fault>[a-z0-9-]+)\s+(?P<injected>\d+)\s+(?P<survived>\d+)\s+(?P<lost>\d+)\s+(?P<dup>\d+)$"
)


def test_short_soak_loses_and_duplicates_nothing_under_every_fault_class(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENJI_", "QUEUE_"))}
    # The services' logs land under tmp_path, so they are kept with the run's artifacts.
    result = subprocess.run(
        [sys.executable, "-m", "genji_devstack.soak", "--short", "--dir", str(tmp_path / "soak")],
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    rows = {m["fault"]: m for line in output.splitlines() if (m := ROW.match(line.strip()))}
    for fault in CLASSES:
        row = rows[fault]
        assert int(row["injected"]) >= 1 and row["survived"] == row["injected"], output[-4000:]
        assert (row["lost"], row["dup"]) == ("0", "0"), output[-4000:]
    # The receipt window was met: a bot died right after an effect it requested committed.
    assert re.search(r"receipt-window: after-[a-z]+ x1\b", output), output[-4000:]
    for name in REGISTRY.names():
        assert re.search(rf"^\s+{re.escape(name)}\s+\d+ jobs$", output, re.M), name
    assert "FINDING" not in output
