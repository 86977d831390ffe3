"""GENJI_METRICS_* settings: off by default, loopback by default, bad values named clearly."""

from __future__ import annotations

import pytest
from genji_api.settings import SettingsError, settings_from_env
from genji_worker.settings import MetricsSettings, metrics_settings_from_env


def test_metrics_are_off_until_a_port_is_set_and_listen_on_loopback() -> None:
    assert metrics_settings_from_env({}) == MetricsSettings(port=None, addr="127.0.0.1")
    assert metrics_settings_from_env({"GENJI_METRICS_PORT": ""}).port is None
    chosen = metrics_settings_from_env(
        {"GENJI_METRICS_PORT": "9100", "GENJI_METRICS_REFRESH_SECONDS": "5"}
    )
    assert (chosen.port, chosen.addr, chosen.refresh_seconds) == (9100, "127.0.0.1", 5.0)


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("GENJI_METRICS_PORT", "ninety"),
        ("GENJI_METRICS_PORT", "70000"),
        ("GENJI_METRICS_PORT", "-1"),
        ("GENJI_METRICS_REFRESH_SECONDS", "soon"),
        ("GENJI_METRICS_REFRESH_SECONDS", "0"),
        ("GENJI_METRICS_ADDR", " 0.0.0.0"),
    ],
)
def test_a_bad_metrics_setting_names_its_variable(name: str, raw: str) -> None:
    with pytest.raises(ValueError, match=name):
        metrics_settings_from_env({"GENJI_METRICS_PORT": "9100", name: raw})
    with pytest.raises(SettingsError, match=name):
        settings_from_env(
            {"DATABASE_URL": "postgresql://x@h/d", "GENJI_METRICS_PORT": "1", name: raw}
        )
