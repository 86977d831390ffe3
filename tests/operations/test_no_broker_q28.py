"""Q28, broker absent: no broker client is a dependency, no deployment file configures a broker,
no code path refers to one, and the API, its worker and the bot start and do their work with no
broker setting at all."""

from __future__ import annotations

import ast
import asyncio
import os
import re
import signal
import subprocess
import sys
import tomllib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from genji_api.auth import scopes
from genji_devstack.ports import free_port
from genji_devstack.recorder_port import RecorderPort

from tests.support.harness import FAST_SETTINGS, eventually
from tests.support.secrets_seen import issue_token
from tests.support.testdb import Connect, Database

from .deploy_files import DEPLOY, ENVIRONMENTS, resolved_models

pytestmark = pytest.mark.queue

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()

# Python distributions that speak AMQP or drive RabbitMQ, and the modules they install.
BROKER_DISTRIBUTIONS = frozenset(
    {
        "aio-pika",
        "aiormq",
        "pika",
        "kombu",
        "amqp",
        "py-amqp",
        "amqpstorm",
        "aioamqp",
        "pamqp",
        "rabbitpy",
        "librabbitmq",
        "txamqp",
        "celery",
        "faststream",
        "rstream",
        "haigha",
        "puka",
    }
)
BROKER_NAME = re.compile(r"amqp|rabbit|pika", re.IGNORECASE)
BROKER_MODULES = frozenset(
    {
        "aio_pika",
        "aiormq",
        "pika",
        "kombu",
        "amqp",
        "amqpstorm",
        "aioamqp",
        "pamqp",
        "rabbitpy",
        "librabbitmq",
        "txamqp",
        "celery",
        "faststream",
        "rstream",
    }
)
# Settings a broker integration reads.
BROKER_VARIABLE = re.compile(r"RABBIT|AMQP|BROKER|CELERY|PIKA|\bMQ_|_MQ\b|DLQ", re.IGNORECASE)
# Words that only a broker integration would write (RabbitMQ, AMQP, their clients, dead-letter
# queues, the broker's ports). Saying that there is no broker is not one of them.
BROKER_WORDS = re.compile(
    r"rabbit|amqp|aio[-_]?pika|aiormq|\bpika\b|kombu|celery|\bdlqs?\b|\w+\.dlq\b|dead[-_ ]?letter"
    r"|x-death|\bbroker_(?:url|host|user|pass|password|port)\b|\b1?5672\b",
    re.IGNORECASE,
)
AUDITED = ("apps", "tests", "deploy", "docs", ".github", ".ci")
AUDITED_FILES = ("justfile", "README.md", "pyproject.toml")
# Where broker words are history or the import of the retired broker's export manifests (whose
# format names queues, dead-letter copies and AMQP properties): the cutover runbook, history
# pages, the import command and its tests. No broker client import is allowed there either.
ALLOWED = (
    "docs/cutover.md",
    "docs/history/*",
    "apps/api/src/genji_api/cutover/*",
    "tests/operations/broker_export.py",
    "tests/operations/test_broker_import*.py",
)
SKIPPED_DIRS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "node_modules"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return _norm(match.group(1))


def _is_broker_client(name: str) -> bool:
    return _norm(name) in BROKER_DISTRIBUTIONS or BROKER_NAME.search(name) is not None


def _manifest_requirements(path: Path) -> set[str]:
    data = tomllib.loads(path.read_text())
    project = data.get("project", {})
    found = {_requirement_name(r) for r in project.get("dependencies", [])}
    for extra in project.get("optional-dependencies", {}).values():
        found |= {_requirement_name(r) for r in extra}
    for group in data.get("dependency-groups", {}).values():
        found |= {_requirement_name(r) for r in group if isinstance(r, str)}
    return found


def test_q28_no_manifest_or_lock_file_resolves_a_broker_client() -> None:
    manifests = [ROOT / "pyproject.toml", *sorted(ROOT.glob("apps/*/pyproject.toml"))]
    assert len(manifests) >= 6  # the root and every application package
    declared = {str(m.relative_to(ROOT)): _manifest_requirements(m) for m in manifests}
    assert "pgqueuer" in declared["apps/worker/pyproject.toml"]
    assert {m: sorted(filter(_is_broker_client, names)) for m, names in declared.items()} == {
        m: [] for m in declared
    }

    locked = {_norm(p["name"]) for p in tomllib.loads((ROOT / "uv.lock").read_text())["package"]}
    assert {"pgqueuer", "asyncpg", "discord-py", "litestar"} <= locked
    assert sorted(filter(_is_broker_client, locked)) == []

    exported = {
        _requirement_name(line)
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if line and not line.startswith((" ", "#", "-"))
    }
    assert {"pgqueuer", "asyncpg"} <= exported
    assert sorted(filter(_is_broker_client, exported)) == []


def _deployment_files() -> list[Path]:
    files = [
        p
        for p in DEPLOY.rglob("*")
        if p.is_file()
        and (p.suffix in (".yml", ".yaml") or ".env" in p.name or p.name.startswith("Dockerfile"))
    ]
    assert {p.name for p in files} >= {
        "compose.yml",
        *(f"compose.{e}.yml" for e in ENVIRONMENTS),
        *(f"{e}.env.example" for e in ENVIRONMENTS),
        "queue.env.example",
    }
    return files


def _variables(path: Path) -> set[str]:
    names = set()
    for line in path.read_text().splitlines():
        match = re.match(r"\s*#?\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=", line)
        if match:
            names.add(match.group(1))
    return names


def test_q28_no_compose_or_environment_file_configures_a_broker() -> None:
    for path in _deployment_files():
        text = path.read_text()
        assert BROKER_WORDS.findall(text) == [], path
        assert sorted(n for n in _variables(path) if BROKER_VARIABLE.search(n)) == [], path

    for environment, model in resolved_models().items():
        for name, service in model["services"].items():
            assert not re.search(r"rabbit|amqp|broker|mq\b", name, re.IGNORECASE), name
            assert not re.search(r"rabbit|amqp", service.get("image", ""), re.IGNORECASE)
            variables = service.get("environment", {})
            assert [v for v in variables if BROKER_VARIABLE.search(v)] == [], (environment, name)
            assert not any(BROKER_WORDS.search(str(v)) for v in variables.values())
            check = " ".join(service.get("healthcheck", {}).get("test", []))
            assert not BROKER_WORDS.search(check), (environment, name)
            published = " ".join(map(str, service.get("ports", [])))
            assert "5672" not in published
            for volume in service.get("volumes", []):
                assert not BROKER_WORDS.search(str(volume)), (environment, name)
        assert [v for v in model.get("volumes", {}) if BROKER_WORDS.search(v)] == []
        assert [n for n in model.get("networks", {}) if BROKER_WORDS.search(n)] == []


def _allowed(relative: str) -> bool:
    from fnmatch import fnmatch

    return any(fnmatch(relative, pattern) for pattern in ALLOWED)


def _audited_files() -> Iterator[Path]:
    for top in AUDITED:
        base = ROOT / top
        if not base.exists():
            continue
        for path in base.rglob("*"):
            if path.is_file() and not SKIPPED_DIRS & set(path.relative_to(ROOT).parts):
                yield path
    for name in AUDITED_FILES:
        yield ROOT / name


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    modules.add(arg.value.split(".")[0])
    return modules


def test_q28_reference_audit_finds_no_broker_code_path() -> None:
    referenced: dict[str, list[str]] = {}
    importing: dict[str, list[str]] = {}
    audited = 0
    for path in _audited_files():
        relative = str(path.relative_to(ROOT))
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue  # binary files carry no code path
        audited += 1
        if path.suffix == ".py":
            found = sorted(_imported_modules(path) & BROKER_MODULES)
            if found:
                importing[relative] = found
        if path.resolve() == THIS or _allowed(relative):
            continue
        words = sorted({m.group(0).lower() for m in BROKER_WORDS.finditer(text)})
        if words:
            referenced[relative] = words
    assert audited > 300  # the applications, their tests, deploy/, docs/ and the justfile
    assert referenced == {}
    assert importing == {}


def test_q28_the_audit_sees_a_broker_reference_and_a_client_import(tmp_path: Path) -> None:
    """The audit's own patterns catch what they are for (so an empty result means something)."""
    sample = tmp_path / "consumer.py"
    sample.write_text(
        "import aio_pika\nfrom kombu import Connection\n"
        "URL = 'amqp://guest@rabbitmq:5672/'\nQUEUE = 'api.xp.grant.dlq'\n"
    )
    assert _imported_modules(sample) == {"aio_pika", "kombu"}
    assert {m.group(0).lower() for m in BROKER_WORDS.finditer(sample.read_text())} == {
        "aio_pika",
        "kombu",
        "amqp",
        "rabbit",
        "5672",
        "grant.dlq",
    }
    assert BROKER_WORDS.search("There is no message broker.") is None
    assert _allowed("docs/cutover.md") and not _allowed("docs/architecture.md")
    assert BROKER_VARIABLE.search("RABBITMQ_HOST") and BROKER_VARIABLE.search("AMQP_URL")
    assert not BROKER_VARIABLE.search("QUEUE_DATABASE_PASSWORD")


# ---- Runtime: the real API process and the recorded bot, with no broker setting ------------

BOT_USER_ID = 10**18


def _bare_environment(**settings: str) -> dict[str, str]:
    """Only what a process needs to run, plus `settings`: nothing inherited from this shell."""
    environment = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
    environment.update(FAST_SETTINGS)
    environment.update(settings)
    assert [name for name in environment if BROKER_VARIABLE.search(name)] == []
    assert not any(BROKER_WORDS.search(value) for value in environment.values())
    return environment


@dataclass
class Child:
    process: subprocess.Popen[bytes]
    log: Path

    @classmethod
    def start(cls, module: str, environment: dict[str, str], log: Path) -> Child:
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", module],
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return cls(process, log)

    def text(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> int | None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        return self.process.returncode


@dataclass
class BrokerlessStack:
    api: Child
    bot: Child
    url: str
    superuser: str
    api_environment: dict[str, str]
    bot_environment: dict[str, str]
    recorder: RecorderPort


@pytest.fixture
async def brokerless(
    db: Database, connect: Connect, tmp_path: Path
) -> AsyncIterator[BrokerlessStack]:
    owner = await connect()
    await owner.execute(
        "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada')", BOT_USER_ID
    )
    superuser = await issue_token(owner, "operator", superuser=True, scopes=frozenset())
    bot_key = await issue_token(owner, "genji-bot", superuser=False, scopes=scopes.BOT)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    api_environment = _bare_environment(
        DATABASE_URL=db.dsn,
        API_PORT=str(port),
        BOT_USER_ID=str(BOT_USER_ID),
        # Nothing listens there: OCR is unavailable, so runs go to manual review.
        OCR_URL=f"http://127.0.0.1:{free_port()}",
        OCR_TIMEOUT_SECONDS="2",
    )
    recorder_dir = tmp_path / "effects"
    bot_environment = _bare_environment(
        QUEUE_DATABASE_URL=db.worker_dsn,
        GENJI_API_URL=url,
        GENJI_API_KEY=bot_key,
        GENJI_RECORDER_DIR=str(recorder_dir),
    )
    api = Child.start("genji_api", api_environment, tmp_path / "api.log")
    bot = Child.start("genji_devstack.recorded_bot", bot_environment, tmp_path / "bot.log")
    try:
        yield BrokerlessStack(
            api,
            bot,
            url,
            superuser,
            api_environment,
            bot_environment,
            RecorderPort(recorder_dir),
        )
    finally:
        bot_status = bot.stop()  # the bot first: its last API calls still get answers
        api_status = api.stop()
        assert bot_status == 0, bot.text()
        # uvicorn re-raises SIGTERM once its graceful shutdown (the worker's drain) is done.
        assert api_status in (0, -signal.SIGTERM), api.text()
        assert "API worker stopped" in api.text()


async def _health(environment: dict[str, str], owner: str) -> bool:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "genji_worker.health",
        "--owner",
        owner,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
    )
    await process.communicate()
    return process.returncode == 0


def _environ_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)


async def _job_status(http: httpx.AsyncClient, job_id: Any) -> str:
    response = await http.get(f"/api/v3/internal/jobs/{job_id}")
    assert response.status_code == 200, response.text
    status: str = response.json()["status"]
    return status


async def test_q28_api_worker_and_bot_serve_and_consume_without_any_broker_setting(
    brokerless: BrokerlessStack, connect: Connect
) -> None:
    stack, owner = brokerless, await connect()
    for child in (stack.api, stack.bot):
        names = _environ_of(child.process.pid)
        assert [n for n in names if BROKER_VARIABLE.search(n)] == []

    async with httpx.AsyncClient(
        base_url=stack.url, headers={"X-API-KEY": stack.superuser}, timeout=10
    ) as http:

        async def serving() -> bool:
            assert stack.api.process.poll() is None, stack.api.text()
            assert stack.bot.process.poll() is None, stack.bot.text()
            try:
                return (await http.get("/healthcheck")).status_code == 200
            except httpx.TransportError:
                return False

        await eventually(serving, 60, "the API to serve")
        # Both workers consume, judged by the containers' health check.
        await eventually(lambda: _health(stack.api_environment, "api"), 30, "the API worker")
        await eventually(lambda: _health(stack.bot_environment, "bot"), 30, "the bot worker")

        player = await owner.fetchval(
            "INSERT INTO core.users (id, nickname) VALUES ($1, 'player') RETURNING id",
            BOT_USER_ID + 1,
        )
        map_id = await owner.fetchval(
            "INSERT INTO core.maps (code, map_name, official, playtesting, raw_difficulty) "
            "VALUES ('NOMQ1', 'Hanamura', true, 'Approved', 5.0) RETURNING id"
        )
        await owner.execute(
            "INSERT INTO maps.creators (map_id, user_id, is_primary) VALUES ($1, $2, true)",
            map_id,
            player,
        )
        # A screenshot-only run: the API worker's OCR continuation decides it (OCR is down, so
        # manual review), which enqueues the review card the bot consumes.
        response = await http.post(
            "/api/v3/completions/",
            json={
                "code": "NOMQ1",
                "user_id": player,
                "time": 42.5,
                "screenshot": "https://img.example/run.png",
                "video": None,
            },
        )
        assert response.status_code == 201, response.text

        async def job(event: str) -> asyncpg.Record | None:
            row: asyncpg.Record | None = await owner.fetchrow(
                "SELECT id FROM jobs WHERE action = $1", event
            )
            return row

        ocr = await eventually(lambda: job("completion.ocr.requested"), 10, "the OCR job")
        card = await eventually(lambda: job("api.completion.submission"), 60, "the card job")

        async def succeeded(job_id: Any) -> bool:
            return await _job_status(http, job_id) == "succeeded"

        await eventually(lambda: succeeded(ocr["id"]), 60, "the API worker to consume")
        await eventually(lambda: succeeded(card["id"]), 60, "the bot to consume")
    assert len(stack.recorder.sends(job_id=str(card["id"]))) >= 1
