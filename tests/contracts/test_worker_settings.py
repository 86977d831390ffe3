"""Worker configuration: production defaults, overrides, and the bot's credential boundary."""

from datetime import timedelta

import pytest
from genji_worker.process import QueueLoginError, queue_dsn
from genji_worker.settings import WorkerSettings, settings_from_env

pytestmark = pytest.mark.queue


def test_defaults_are_the_specified_production_values() -> None:
    s = WorkerSettings()
    assert (s.active_jobs, s.batch_size, s.entrypoint_concurrency) == (2, 1, 1)
    assert s.polling_fallback == timedelta(seconds=5)
    assert s.drain_timeout == timedelta(seconds=30)
    assert (s.reconnect_initial, s.reconnect_max) == (timedelta(seconds=1), timedelta(seconds=30))
    assert s.command_timeout == timedelta(seconds=10)
    assert [d.total_seconds() for d in s.retry_delays] == [5, 15, 60, 300, 900]
    assert s.handler_timeout == timedelta(seconds=120)


def test_environment_overrides_durations_lists_and_counts() -> None:
    s = settings_from_env(
        {
            "GENJI_QUEUE_DRAIN_TIMEOUT": "1.5",
            "GENJI_QUEUE_RETRY_DELAYS": "0.1,0.2",
            "GENJI_QUEUE_ACTIVE_JOBS": "4",
        }
    )
    assert s.drain_timeout == timedelta(seconds=1.5)
    assert s.retry_delays == (timedelta(seconds=0.1), timedelta(seconds=0.2))
    assert s.active_jobs == 4


@pytest.mark.parametrize(
    "bad", [{"active_jobs": 1}, {"entrypoint_concurrency": 2}, {"command_timeout": timedelta(0)}]
)
def test_invalid_settings_are_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        WorkerSettings(**bad)  # type: ignore[arg-type]


def test_bot_never_falls_back_to_the_owner_credential() -> None:
    env = {
        "DATABASE_URL": "postgresql://api:secret@db:5432/genji",
        "QUEUE_DATABASE_PASSWORD": "q w",
    }
    assert queue_dsn("bot", env) == "postgresql://genjishimada_queue_worker:q%20w@db:5432/genji"
    assert queue_dsn("api", env) == env["DATABASE_URL"]
    assert (
        queue_dsn("bot", {**env, "QUEUE_DATABASE_URL": "postgresql://w@q/db"})
        == "postgresql://w@q/db"
    )


def test_bot_keeps_every_host_of_a_multi_host_database_url() -> None:
    env = {
        "DATABASE_URL": "postgresql://api:secret@db1:5432,db2:5433/genji"
        "?target_session_attrs=read-write",
        "QUEUE_DATABASE_PASSWORD": "pw",
    }
    assert queue_dsn("bot", env) == (
        "postgresql://genjishimada_queue_worker:pw@db1:5432,db2:5433/genji"
        "?target_session_attrs=read-write"
    )


def test_bot_without_its_queue_password_is_a_login_error() -> None:
    env = {"DATABASE_URL": "postgresql://api:secret@db:5432/genji"}
    with pytest.raises(QueueLoginError, match="QUEUE_DATABASE_PASSWORD must be set"):
        queue_dsn("bot", env)
    assert queue_dsn("api", env) == env["DATABASE_URL"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("GENJI_QUEUE_STALE_HEARTBEAT", "queue_settings.stale_heartbeat"),
        ("GENJI_QUEUE_MAX_RECLAIMS", "queue_settings.max_reclaims"),
        (
            "GENJI_QUEUE_DRAIN_TIMOUT",
            "unknown setting GENJI_QUEUE_DRAIN_TIMOUT; did you mean GENJI_QUEUE_DRAIN_TIMEOUT",
        ),
    ],
)
def test_settings_the_worker_no_longer_owns_or_misspelt_are_refused(
    name: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        settings_from_env({name: "1"})
