"""Drives schemathesis over every operation of an OpenAPI document served by a running API.

Each operation gets a bounded, derandomized Hypothesis run; a failed check is recorded with
schemathesis's reproduction (a curl command and the response) instead of stopping the run, so
one pass reports every broken operation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, CheckFunction, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Err
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CONFORMANCE_CHECKS: tuple[CheckFunction, ...] = (
    not_a_server_error,
    response_schema_conformance,
    content_type_conformance,
    status_code_conformance,
)
REQUEST_TIMEOUT = 30.0


@dataclass(frozen=True)
class Finding:
    operation: str
    title: str
    report: str


@dataclass
class FuzzSummary:
    operations: int = 0
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    ungenerated: list[str] = field(default_factory=list)
    """Operation and mode pairs for which no request could be generated at all."""

    def line(self, name: str) -> str:
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses.items()))
        return (
            f"{name}: {self.operations} operations, {self.requests} requests, "
            f"{len(self.findings)} failures (statuses {statuses})"
            + (
                f"; nothing to generate for {', '.join(self.ungenerated)}"
                if self.ungenerated
                else ""
            )
        )

    def failure_report(self, limit: int = 5) -> str:
        parts = [f"{f.operation}: {f.title}\n{f.report}" for f in self.findings[:limit]]
        if len(self.findings) > limit:
            parts.append(f"... and {len(self.findings) - limit} more")
        return "\n\n".join(parts)


def load_schema(base_url: str) -> Any:
    """The document the app serves; the caller sends the API key, so generation leaves it be."""
    config = schemathesis.Config()
    config.projects.override.generation.update(with_security_parameters=False)
    return schemathesis.openapi.from_url(
        f"{base_url}/schema/openapi.json", config=config, timeout=REQUEST_TIMEOUT
    )


def _pinned_strategy(
    operation: Any, mode: GenerationMode, pinned: Mapping[str, object]
) -> st.SearchStrategy[Case] | None:
    """Cases whose path and query parameters named like a seeded row carry its real value."""
    path = {p.name: pinned[p.name] for p in operation.path_parameters if p.name in pinned}
    query = {p.name: pinned[p.name] for p in operation.query if p.name in pinned}
    if not path and not query:
        return None
    return operation.as_strategy(  # type: ignore[no-any-return]
        generation_mode=mode, path_parameters=path or None, query=query or None
    )


def fuzz(
    schema: Any,
    base_url: str,
    headers: Mapping[str, str],
    *,
    checks: Sequence[CheckFunction] = CONFORMANCE_CHECKS,
    modes: Iterable[GenerationMode] = (GenerationMode.POSITIVE,),
    max_examples: int = 10,
    pinned: Mapping[str, object] | None = None,
) -> FuzzSummary:
    """Run every operation of `schema` against `base_url`, sending `headers` with each request."""
    summary = FuzzSummary()
    session = requests.Session()
    seen: set[tuple[str, str]] = set()
    for result in schema.get_all_operations():
        if isinstance(result, Err):
            error = result.err()
            summary.findings.append(Finding(str(error.path or "?"), "invalid schema", str(error)))
            continue
        operation = result.ok()
        summary.operations += 1
        for mode in modes:
            strategies = [operation.as_strategy(generation_mode=mode)]
            if pinned and (extra := _pinned_strategy(operation, mode, pinned)) is not None:
                strategies.append(extra)

            @given(case=st.one_of(strategies))
            @settings(
                max_examples=max_examples,
                deadline=None,
                derandomize=True,
                database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            def run(case: Case) -> None:
                response = case.call(
                    base_url=base_url,
                    session=session,
                    headers=dict(headers),
                    timeout=REQUEST_TIMEOUT,
                )
                summary.requests += 1
                summary.statuses[response.status_code] += 1
                try:
                    case.validate_response(response, checks=list(checks), headers=dict(headers))
                except FailureGroup as group:
                    for failure in group.exceptions:
                        key = (case.operation.label, failure.title)
                        if key not in seen:
                            seen.add(key)
                            summary.findings.append(
                                Finding(case.operation.label, failure.title, str(group))
                            )

            try:
                run()
            except Unsatisfiable:
                # Nothing in this operation can be made invalid (negative mode) or valid.
                summary.ungenerated.append(f"{operation.label} ({mode.value})")
    session.close()
    return summary
