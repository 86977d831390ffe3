"""deploy/deploy.sh runs the deployment order, and its password step works on a real database."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from genji_api.worker_password import set_worker_password

from tests.support.secrets_seen import register
from tests.support.testdb import WORKER_PASSWORD, Database

from .deploy_files import DEPLOY, env_example, provided, validator

pytestmark = pytest.mark.queue

ORDER = {
    "local": [
        "config --quiet",
        "build",
        "up --detach --wait db",
        "stop bot api",
        "run --rm --no-deps api python -m genji_api.migrate",
        "run --rm --no-deps -e QUEUE_DATABASE_PASSWORD api python -m genji_api.worker_password",
        "up --detach --wait api",
        "up --detach --wait bot",
    ],
    "prod": [
        "config --quiet",
        "stop bot api",
        "run --rm --no-deps api python -m genji_api.migrate",
        "run --rm --no-deps -e QUEUE_DATABASE_PASSWORD api python -m genji_api.worker_password",
        "up --detach --wait api",
        "up --detach --wait bot",
    ],
}


def _stand_in(tmp_path: Path) -> Path:
    """A Compose command that records each call, and really validates on `config`."""
    script = tmp_path / "compose"
    script.write_text(
        "#!/usr/bin/env bash\n"
        'printf "%s\\n" "$*" >> "$COMPOSE_CALLS"\n'
        'for arg in "$@"; do [[ $arg == config ]] && exec '
        f'{shlex.quote(validator())} "$@"; done\n'
        'if [[ " $* " == *" -e QUEUE_DATABASE_PASSWORD "* && -z "$QUEUE_DATABASE_PASSWORD" ]]; '
        "then exit 9; fi\n"
    )
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("environment", ORDER)
def test_deploy_stops_the_workers_migrates_sets_the_password_then_starts_the_api_then_the_bot(
    tmp_path: Path, environment: str
) -> None:
    calls = tmp_path / "calls"
    result = subprocess.run(
        [str(DEPLOY / "deploy.sh"), environment],
        env={
            "PATH": os.environ["PATH"],
            **provided(environment),
            "COMPOSE": str(_stand_in(tmp_path)),
            "COMPOSE_CALLS": str(calls),
            "GENJI_ENV_FILE": str(env_example(environment)),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    prefix = (
        f"--project-name genjishimada-{environment} --env-file {env_example(environment)} "
        f"-f {DEPLOY / 'compose.yml'} -f {DEPLOY / f'compose.{environment}.yml'} "
    )
    recorded = calls.read_text().splitlines()
    assert all(line.startswith(prefix) for line in recorded), recorded
    assert [line.removeprefix(prefix) for line in recorded] == ORDER[environment]


def test_deploy_refuses_an_unknown_environment_or_a_missing_settings_file(tmp_path: Path) -> None:
    env = {"PATH": os.environ["PATH"], "COMPOSE": "false"}
    unknown = subprocess.run([str(DEPLOY / "deploy.sh"), "staging"], env=env, capture_output=True)
    assert unknown.returncode == 64
    missing = subprocess.run(
        [str(DEPLOY / "deploy.sh"), "prod"],
        env={**env, "GENJI_ENV_FILE": str(tmp_path / "prod.env")},
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 66 and "prod.env.example" in missing.stderr


def _set_password(db: Database, password: str | None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "DATABASE_URL": db.dsn}
    if password is not None:
        env["QUEUE_DATABASE_PASSWORD"] = password
    return subprocess.run(
        [sys.executable, "-m", "genji_api.worker_password"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_the_worker_password_step_sets_a_scram_verifier_as_the_owner(db: Database) -> None:
    new = "deploy-order-" + WORKER_PASSWORD[:8]
    register(new)
    worker_at = db.worker_dsn.replace(WORKER_PASSWORD, "{}")
    try:
        result = _set_password(db, new)
        assert result.returncode == 0, result.stderr
        assert new not in result.stdout + result.stderr
        conn = await asyncpg.connect(worker_at.format(new))
        assert await conn.fetchval("SELECT current_user") == "genjishimada_queue_worker"
        await conn.close()
        with pytest.raises(asyncpg.InvalidPasswordError):
            await asyncpg.connect(worker_at.format(WORKER_PASSWORD))
        admin = await asyncpg.connect(db.admin_dsn)
        stored = await admin.fetchval(
            "SELECT rolpassword FROM pg_authid WHERE rolname = 'genjishimada_queue_worker'"
        )
        await admin.close()
        assert stored.startswith("SCRAM-SHA-256$") and new not in stored
    finally:
        # The role is cluster-wide: give the rest of the session its password back.
        set_worker_password(db.dsn, WORKER_PASSWORD)

    refused = _set_password(db, None)
    assert refused.returncode == 2 and "QUEUE_DATABASE_PASSWORD" in refused.stderr
