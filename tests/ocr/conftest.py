from __future__ import annotations

from collections.abc import Iterator

import pytest
from genji_devstack.fake_ocr import FakeOcr


@pytest.fixture
def fake_ocr() -> Iterator[FakeOcr]:
    with FakeOcr() as fake:
        yield fake
