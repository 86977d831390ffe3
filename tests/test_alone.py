"""Under pytest-xdist a test marked `alone` runs while no other worker runs a test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]

CONFTEST = """
from tests.support.alone import Alone

def pytest_configure(config):
    config.addinivalue_line("markers", "alone: runs alone")
    config.pluginmanager.register(Alone(), "alone")
"""
# Each test leaves a file while it runs; the alone one checks, while it runs, that no other
# test's file is there.
SAMPLE = """
import time
from pathlib import Path
import pytest

RUNNING = Path(__file__).parent / "running"

def _busy(name, seconds):
    RUNNING.mkdir(exist_ok=True)
    mine = RUNNING / name
    mine.touch()
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            others = sorted(p.name for p in RUNNING.iterdir() if p != mine)
            yield others
            time.sleep(0.02)
    finally:
        mine.unlink()

@pytest.mark.parametrize("n", range(12))
def test_ordinary(n):
    for _ in _busy(f"ordinary-{n}", 0.4):
        pass

@pytest.mark.alone
def test_alone():
    for others in _busy("alone", 1.5):
        assert others == []
"""


@pytest.mark.queue
def test_an_alone_test_overlaps_no_other_workers_test(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    options = ["-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "-n", "3"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "--dist", "load", str(tmp_path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPOSITORY), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "13 passed" in result.stdout
