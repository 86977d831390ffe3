"""How the bot's API client classifies the API's error answers: an outage (502/503/504) defers
the job without spending its failure budget; a 500 is an ordinary failure."""

from __future__ import annotations

import httpx
import pytest
from genji_bot.api import ApiError, _raise_for
from genji_sdk.failures import DependencyUnavailable

OUTAGE_BODY = {"error": "The database is unavailable. Retry later.", "extra": None}


@pytest.mark.parametrize("status", [502, 503, 504])
def test_outage_statuses_are_dependency_unavailable(status: int) -> None:
    response = httpx.Response(status, json=OUTAGE_BODY, headers={"Retry-After": "2"})
    with pytest.raises(DependencyUnavailable) as raised:
        _raise_for(response)
    assert raised.value.dependency == "api"


def test_internal_error_is_an_ordinary_failure() -> None:
    response = httpx.Response(500, json={"error": "Internal Server Error", "extra": None})
    with pytest.raises(ApiError) as raised:
        _raise_for(response)
    assert not isinstance(raised.value, DependencyUnavailable)
    assert raised.value.status == 500
