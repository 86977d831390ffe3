"""Event names come from payload types: the registry maps each payload type to one event, the
API's producers enqueue by payload and the bot's consumers register by payload, so neither
names an event in text."""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest
from genji_sdk import REGISTRY, DuplicateRegistrationError, EventRegistry, EventSpec
from genji_sdk import payloads as p
from genji_sdk.errors import UnknownEventError

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "apps/api/src/genji_api"
BOT = ROOT / "apps/bot/src/genji_bot"
# The typed enqueue hands the derived name to the raw SQL wrapper (enqueue_job_raw); the broker
# import states the name it read, and enqueue_job checks it against the payload's.
STATES_NAMES = {API / "queue/enqueue.py", API / "cutover/service.py"}


def _calls(root: Path, function: str) -> list[tuple[Path, ast.Call]]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name == function:
                    found.append((path, node))
    return found


def test_every_payload_type_names_exactly_one_event() -> None:
    for spec in REGISTRY:
        assert REGISTRY.for_payload(spec.payload_type) is spec
    assert len({spec.payload_type for spec in REGISTRY}) == len(REGISTRY)


def test_a_payload_type_cannot_be_the_payload_of_two_events() -> None:
    registry = EventRegistry([EventSpec("api.xp.grant", "bot", p.XpGrantEvent)])
    with pytest.raises(DuplicateRegistrationError, match="XpGrantEvent"):
        registry.register(EventSpec("api.xp.other", "bot", p.XpGrantEvent))


def test_a_type_the_registry_does_not_know_names_no_event() -> None:
    class Stray(msgspec.Struct):
        x: int

    with pytest.raises(UnknownEventError, match="Stray"):
        REGISTRY.name_of(Stray(1))


def test_producers_enqueue_by_payload_type_and_name_no_event() -> None:
    calls = [
        *_calls(API, "enqueue_job"),
        *_calls(API, "enqueue_job_raw"),
        *_calls(API, "JobRequest"),
    ]
    assert calls, "no producer found"
    named = [
        f"{path.relative_to(ROOT)}:{call.lineno}"
        for path, call in calls
        if path not in STATES_NAMES and any(kw.arg == "event_name" for kw in call.keywords)
    ]
    assert named == [], f"producers naming their event: {named}"


def test_consumers_register_by_payload_type() -> None:
    calls = _calls(BOT, "queue_consumer")
    assert len(calls) == len(REGISTRY.owned_by("bot"))
    named = [
        f"{path.relative_to(ROOT)}:{call.lineno}"
        for path, call in calls
        if not (len(call.args) == 1 and isinstance(call.args[0], ast.Name))
    ]
    assert named == [], f"consumers not registered by payload type: {named}"
