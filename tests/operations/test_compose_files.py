"""deploy/compose*.yml, validated and resolved by a real Compose implementation: each
environment's services, stop grace, networks and health checks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from genji_bot.settings import required_ids

from .deploy_files import DEPLOY, ENVIRONMENTS, Config, provided, resolved_models, run_configs

# Under xdist the module's tests stay on one worker, which builds its module fixtures once.
pytestmark = [pytest.mark.queue, pytest.mark.xdist_group("operations-compose-files")]

WORKER_HEALTH = {
    "api": "python -m genji_worker.health --owner api",
    "bot": "python -m genji_worker.health --owner bot",
}


@pytest.fixture(scope="module", params=ENVIRONMENTS)
def model(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param, resolved_models()[request.param]


def _command(test: list[str]) -> str:
    assert test[0] in ("CMD", "CMD-SHELL"), test
    return " ".join(test[1:])


def test_each_environment_runs_the_api_and_the_bot_with_their_workers_in_process(
    model: tuple[str, dict[str, Any]],
) -> None:
    environment, config = model
    services = config["services"]
    expected = {"api", "bot"} | ({"db"} if environment != "prod" else set())
    assert set(services) == expected  # no queue service of any kind
    assert services["api"]["command"] == ["python", "-m", "genji_api"]
    assert services["bot"]["command"] == ["python", "-m", "genji_bot"]
    for name in ("api", "bot"):
        assert services[name]["stop_grace_period"] == "45s"
        assert services[name]["restart"] == "unless-stopped"
    assert services["bot"]["depends_on"] == {"api": {"condition": "service_healthy"}}
    if environment != "prod":
        assert services["api"]["depends_on"] == {"db": {"condition": "service_healthy"}}
        assert services["db"]["image"].startswith("postgres:15")
        assert services["db"]["stop_grace_period"] == "45s"


def test_the_api_and_the_bot_serve_metrics_inside_the_networks_only(
    model: tuple[str, dict[str, Any]],
) -> None:
    _, config = model
    for name in ("api", "bot"):
        service = config["services"][name]
        assert service["environment"]["GENJI_METRICS_PORT"] == "9100"
        assert service["environment"]["GENJI_METRICS_ADDR"] == "0.0.0.0"
        published = [
            str(port["target"])
            if isinstance(port, dict)
            else str(port).rsplit(":", 1)[-1].split("/")[0]
            for port in service.get("ports", [])
        ]
        assert "9100" not in published, f"{name} publishes its metrics port"


def test_the_bot_logs_in_as_the_worker_and_never_gets_the_owner_login(
    model: tuple[str, dict[str, Any]],
) -> None:
    environment, config = model
    secrets = provided(environment)
    api, bot = config["services"]["api"]["environment"], config["services"]["bot"]["environment"]
    worker_url = bot["QUEUE_DATABASE_URL"]
    assert worker_url.startswith(
        f"postgresql://genjishimada_queue_worker:{secrets['QUEUE_DATABASE_PASSWORD']}@"
    )
    assert "DATABASE_URL" not in bot
    assert secrets["GENJI_OWNER_PASSWORD"] not in " ".join(map(str, bot.values()))
    assert api["DATABASE_URL"].startswith(
        f"postgresql://genjishimada:{secrets['GENJI_OWNER_PASSWORD']}@"
    )
    assert secrets["QUEUE_DATABASE_PASSWORD"] not in " ".join(map(str, api.values()))
    assert bot["GENJI_API_URL"] == "http://api:8000"
    for name in ("QUEUE_OPERATOR_IDS", "DISCORD_GUILD_ID", "JOB_ALERTS_CHANNEL_ID"):
        assert api[name] == bot[name] != ""
    assert bot["JOB_ALERT_RECIPIENT_ID"] != ""


def test_the_bot_gets_every_id_discord_itself_needs(model: tuple[str, dict[str, Any]]) -> None:
    """With a real token the bot refuses to start on a missing channel or role id: the files
    must give it every one, set."""
    _, config = model
    bot = config["services"]["bot"]["environment"]
    assert "DISCORD_URL" not in bot, "deployments talk to Discord itself"
    missing = [name for name in required_ids() if not str(bot.get(name) or "").strip()]
    assert missing == []


def test_the_bot_and_the_database_share_the_internal_network(
    model: tuple[str, dict[str, Any]],
) -> None:
    environment, config = model
    services, networks = config["services"], config["networks"]
    assert set(services["bot"]["networks"]) == {"internal", "public"}
    assert set(services["api"]["networks"]) == {"internal", "public"}
    if environment == "prod":
        # The existing internal network, where the database server already is.
        assert networks["internal"] == {"external": True, "name": "genjishimada-internal"}
    else:
        assert set(services["db"]["networks"]) == {"internal"}
        assert networks["internal"] == {"internal": True}
        assert "ports" not in services["db"]


def test_every_service_has_a_health_check_and_the_workers_are_judged_from_the_database(
    model: tuple[str, dict[str, Any]],
) -> None:
    _, config = model
    for name, service in config["services"].items():
        check = service["healthcheck"]
        assert {"test", "interval", "timeout", "retries"} <= set(check), name
        assert check.get("disable") is not True
        if name in WORKER_HEALTH:
            assert WORKER_HEALTH[name] in _command(check["test"])
            assert check["start_period"] == "1m"
    assert "/healthcheck" in _command(config["services"]["api"]["healthcheck"]["test"])


def test_a_missing_secret_stops_the_configuration() -> None:
    without = {k: v for k, v in provided("prod").items() if k != "QUEUE_DATABASE_PASSWORD"}
    (result,) = run_configs(replace(Config.of("prod", without), quiet=True))
    assert result.returncode != 0
    assert "the worker password from the secret store" in result.stderr


BREAKS = {
    "grace-period-not-a-duration": ("stop_grace_period: 45s", "stop_grace_period: {seconds: 45}"),
    "unknown-dependency-condition": ("condition: service_healthy", "condition: service_ready"),
    "health-check-not-a-command": (
        'test: ["CMD", "python", "-m", "genji_worker.health", "--owner", "bot"]',
        "test: {command: health}",
    ),
    "unknown-service-option": ("restart: unless-stopped", "restrat: unless-stopped"),
}


def test_the_validator_rejects_broken_files(tmp_path: Path) -> None:
    base = (DEPLOY / "compose.yml").read_text()
    broken = []
    for name, (original, replacement) in BREAKS.items():
        assert original in base, name
        directory = tmp_path / name
        directory.mkdir()
        (directory / "compose.yml").write_text(base.replace(original, replacement, 1))
        (directory / "compose.local.yml").write_text((DEPLOY / "compose.local.yml").read_text())
        (directory / "postgres").symlink_to(DEPLOY / "postgres")
        config = Config.of("local")
        files = (directory / "compose.yml", directory / "compose.local.yml")
        broken.append(replace(config, files=files, quiet=True))
    results = run_configs(*broken)
    for name, result in zip(BREAKS, results, strict=True):
        assert result.returncode != 0, f"the validator accepted {name}"
        assert result.stderr.strip(), name
