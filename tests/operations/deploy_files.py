"""The deployment files under deploy/, resolved by Debian's `docker-compose config` (a real
Compose validator that needs no container engine)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
ENVIRONMENTS = ("local", "dev", "prod")
# What a deployer provides: the secrets from the secret store, and in dev and prod the ids and
# the image tag the examples leave empty. Placeholders only.
SECRETS = {
    "GENJI_OWNER_PASSWORD": "owner-placeholder",
    "QUEUE_DATABASE_PASSWORD": "worker-placeholder",
    "GENJI_API_KEY": "key-placeholder",
    "DISCORD_TOKEN": "token-placeholder",
    "POSTGRES_PASSWORD": "superuser-placeholder",
}
DEPLOYER = {
    "GENJI_IMAGE_TAG": "1.2.3",
    "DISCORD_GUILD_ID": "1000000000000000000",
    "BOT_USER_ID": "1000000000000000099",
    "JOB_ALERTS_CHANNEL_ID": "1000000000000000008",
    "VERIFICATION_QUEUE_CHANNEL_ID": "1000000000000000001",
    "COMPLETIONS_CHANNEL_ID": "1000000000000000002",
    "UPVOTES_CHANNEL_ID": "1000000000000000003",
    "NEWSFEED_CHANNEL_ID": "1000000000000000004",
    "XP_CHANNEL_ID": "1000000000000000005",
    "PLAYTEST_FORUM_CHANNEL_ID": "1000000000000000006",
    "TOURNAMENT_ANNOUNCEMENTS_CHANNEL_ID": "1000000000000000007",
    **{
        f"SKILL_ROLE_{rank}_ID": str(1_000_000_000_000_000_101 + n)
        for n, rank in enumerate(
            ("NINJA", "JUMPER", "SKILLED", "PRO", "MASTER", "GRANDMASTER", "GOD")
        )
    },
    "RANK_ROLE_IDS": ",".join(str(1_000_000_000_000_100_000 + n) for n in range(20)),
    "PRESTIGE_ROLE_IDS": ",".join(str(1_000_000_000_000_200_001 + n) for n in range(10)),
    "MODERATOR_ROLE_IDS": "1000000000000000201",
}


def validator() -> str:
    found = shutil.which("docker-compose")
    if found is None:
        pytest.fail("docker-compose is missing: `just deps` installs Debian's package")
    return found


def env_example(environment: str) -> Path:
    return DEPLOY / "env" / f"{environment}.env.example"


def compose_files(environment: str) -> list[Path]:
    return [DEPLOY / "compose.yml", DEPLOY / f"compose.{environment}.yml"]


def provided(environment: str) -> dict[str, str]:
    """The deployer's variables for `environment`: secrets, plus what its example leaves empty."""
    given = dict(SECRETS)
    if environment != "local":
        given.update(DEPLOYER)
    return given


@dataclass(frozen=True)
class Config:
    """One `docker-compose config` run: the files, the env file, the variables it gets."""

    files: tuple[Path, ...]
    env_file: Path
    variables: tuple[tuple[str, str], ...]
    quiet: bool = False

    @classmethod
    def of(cls, environment: str, variables: dict[str, str] | None = None) -> Config:
        given = provided(environment) if variables is None else variables
        return cls(
            tuple(compose_files(environment)), env_example(environment), tuple(given.items())
        )

    def arguments(self) -> list[str]:
        arguments = [validator(), "--env-file", str(self.env_file)]
        for path in self.files:
            arguments += ["-f", str(path)]
        return [*arguments, "config", *(["-q"] if self.quiet else [])]


def run_configs(*configs: Config) -> list[subprocess.CompletedProcess[str]]:
    """Run the validations side by side (each is a Python start-up); only each config's
    variables and PATH are in its environment."""
    started = [
        (
            config,
            subprocess.Popen(
                config.arguments(),
                env={"PATH": os.environ["PATH"], **dict(config.variables)},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            ),
        )
        for config in configs
    ]
    results = []
    for config, process in started:
        out, err = process.communicate(timeout=60)
        results.append(
            subprocess.CompletedProcess(config.arguments(), process.returncode, out, err)
        )
    return results


@cache
def resolved_models() -> dict[str, dict[str, Any]]:
    """Every environment's merged, validated and interpolated Compose model."""
    results = run_configs(*(Config.of(environment) for environment in ENVIRONMENTS))
    models = {}
    for environment, result in zip(ENVIRONMENTS, results, strict=True):
        assert result.returncode == 0, f"{environment}: {result.stderr}"
        models[environment] = yaml.safe_load(result.stdout)
    return models
