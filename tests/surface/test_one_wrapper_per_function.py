"""Every function in sql/ is called from Python through exactly one typed wrapper in
genji_queue, and no other code writes SQL text that calls those functions."""

import importlib
import pkgutil
import re
import tokenize
from pathlib import Path

import genji_queue
import pytest
from genji_queue.calls import CALLS

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

ROOT = Path(__file__).resolve().parents[2]
DECLARED = re.compile(r"CREATE (?:OR REPLACE )?FUNCTION (\w+)\(", re.IGNORECASE)

# Called only by other SQL functions or triggers, never from Python.
INTERNAL = {
    "queue_wake": "NOTIFY helper of the transitions",
    "queue_resume_waiters": "called by queue_complete_many",
    "queue_session_alive": "liveness check of the worker functions",
    "queue_session_is_worker": "who is calling, for the transition functions",
    "queue_may_act_for": "whether the calling session may use a manager's claim tokens",
    "queue_error_summary": "shapes failure records inside retry and hold",
    "job_terminal_summary": "shared by job_public_status and queue_prune_logs",
    "effect_receipt_require_completion": "commit-time trigger of effect_receipts",
    "effect_binding_claim_check": "the claim check of the binding functions",
    "effect_binding_intended_by": "release and settle: is the intent the caller's",
    "payload_max_bytes": "the size limit, read by payload_problem",
    "payload_float_overflow": "a constant of the contract checks",
    "payload_current_version": "enqueue_job's default version",
    "payload_nodes": "parses contract nodes in sql/payload_contracts.sql",
    "payload_nodes_problem": "the contract table's check constraint",
    "payload_plain_json_problem": "part of payload_problem",
    "payload_is_datetime": "part of payload_problem",
    "payload_fast_predicate": "builds the contract's jsonpath",
    "payload_fast_check": "the contract table's generated jsonpath column",
    "payload_fraction_screen": "the contract table's generated column of where 5.0 may be",
    "payload_fraction_suspect": "the fast paths' test of a payload against that column",
    "payload_walk_problem": "part of payload_problem",
    "queue_trace_filter": "enqueue_job's trace allow-list, generated from the SDK's",
    "queue_envelope": "the queue row's payload enqueue_job and enqueue_jobs write",
    "enqueue_fast_path_passes": "the checks of enqueue_job's and enqueue_jobs' one statement",
    "queue_discard_held": "replaced by recovery_discard; it only refuses, naming it",
    "recovery_job_state": "the job state the recovery functions and the guards read",
    "recovery_has_uncertain_send": "the retry's check for an unresolved send",
    "recovery_check_request": "argument checks of the recovery functions",
    "text_is_blank": "the one definition of blank text the argument checks share",
    "recovery_recorded_action": "the idempotency key lookup of the recovery functions",
    "recovery_context": "the audited operation context",
    "recovery_guard_held_row": "trigger: held rows move only through recovery",
    "recovery_guard_identity": "trigger: queue rows are created by enqueue_job",
    "recovery_guard_truncate": "trigger: no truncation while jobs are held",
}

# Writes sql/payload_contracts.sql (SQL text for a migration), rather than calling functions.
GENERATORS = {ROOT / "apps" / "sdk" / "src" / "genji_sdk" / "contracts" / "sql.py"}
# Python that must reach these functions through genji_queue only.
CALLERS = [
    *ROOT.glob("apps/*/src/**/*.py"),
    *ROOT.glob("bench/**/*.py"),
    ROOT / "tests" / "support" / "queue_helpers.py",
    ROOT / "tests" / "support" / "harness.py",
]


def _sql_functions() -> set[str]:
    return {name for f in (ROOT / "sql").glob("*.sql") for name in DECLARED.findall(f.read_text())}


def _load_wrappers() -> None:
    for module in pkgutil.iter_modules(genji_queue.__path__):
        importlib.import_module(f"genji_queue.{module.name}")


def test_every_sql_function_has_exactly_one_wrapper() -> None:
    _load_wrappers()
    functions = _sql_functions()
    assert set(INTERNAL) <= functions, "an internal function no longer exists"
    assert set(CALLS) == functions - set(INTERNAL)


def test_each_wrapper_calls_the_function_it_names() -> None:
    _load_wrappers()
    for name, call in CALLS.items():
        called = set(re.findall(r"(\w+)\(", call.statement)) & _sql_functions()
        assert called == {name}, f"{name}: statement calls {called}"


async def test_every_wrapper_statement_prepares_against_the_schema(connect: Connect) -> None:
    _load_wrappers()
    conn = await connect()
    for call in CALLS.values():
        await conn.prepare(call.statement)


def _string_literals(path: Path) -> list[tuple[int, str]]:
    with path.open("rb") as source:
        return [
            (token.start[0], token.string)
            for token in tokenize.tokenize(source.readline)
            if token.type == tokenize.STRING
        ]


def test_no_sql_text_for_queue_functions_outside_the_wrappers() -> None:
    pattern = re.compile(rf"\b(?:{'|'.join(sorted(_sql_functions()))})\s*\(")
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in CALLERS
        if "genji_queue" not in path.parts and path not in GENERATORS
        for line, text in _string_literals(path)
        if pattern.search(text)
    ]
    assert offenders == []
