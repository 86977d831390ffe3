from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import Stack, new_stack


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    """A private cluster per test: fault cases stop, crash and restart it freely."""
    owned = new_stack(tmp_path)
    try:
        yield owned
    finally:
        owned.stop_all()
        owned.cluster.destroy()
