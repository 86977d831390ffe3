"""What the operator commands print: the job list, one job's details and a recovery outcome as
rich tables and lines that fit the terminal (80 columns included), or the SDK structs as JSON."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import UTC, datetime

import msgspec
from genji_sdk import REGISTRY, UnknownEventError
from genji_sdk.inspection import (
    ActionView,
    BindingView,
    JobDetails,
    JobList,
    ReceiptView,
    WorkerBudgetView,
)
from genji_sdk.recovery import RecoveryResult
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

ERROR_PREVIEW = 160
"""Characters of a job's last error shown in the list (details show all of it)."""


def print_json(value: msgspec.Struct | dict[str, object]) -> None:
    sys.stdout.buffer.write(msgspec.json.encode(value) + b"\n")
    sys.stdout.flush()


def print_rich(draw: Callable[[Console], None]) -> None:
    """Draw on a console as wide as the terminal (COLUMNS, or 80 when not a terminal), then
    print it without the padding rich leaves at the end of table lines."""
    console = Console(highlight=False)
    with console.capture() as captured:
        draw(console)
    lines = captured.get().split("\n")
    sys.stdout.write("\n".join(line.rstrip() for line in lines))
    sys.stdout.flush()


def _stamp(moment: datetime | None) -> str:
    return "-" if moment is None else f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC"


def _short_stamp(moment: datetime | None) -> str:
    return "-" if moment is None else f"{moment.astimezone(UTC):%m-%d %H:%M:%S}"


def _minute(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%m-%d %H:%M}"


def _age(moment: datetime, now: datetime) -> str:
    seconds = max(int((now - moment).total_seconds()), 0)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _error(code: str | None, message: str | None, limit: int | None = None) -> str:
    text = ": ".join(part for part in (code, message) if part)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def _table(*headers: str) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
    for header in headers:
        table.add_column(header, overflow="fold")
    return table


def render_list(console: Console, listing: JobList, now: datetime, filters: str) -> None:
    count = len(listing.jobs)
    console.print(f"{count} job{'' if count == 1 else 's'}{filters}")
    if not listing.jobs:
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("job / event / last error", min_width=36, overflow="fold", ratio=1)
    table.add_column("state", overflow="fold")
    table.add_column("gen", justify="right")
    table.add_column("fails", justify="right")
    table.add_column("since", overflow="fold")
    for job in listing.jobs:
        cell = Text(str(job.id), style="bold")
        cell.append(f"\n{job.event_name}")
        error = _error(job.error_code, job.error_msg, ERROR_PREVIEW)
        if error:
            cell.append(f"\n{error}", style="red")
        state = job.state + ("\nuncertain" if job.uncertain else "")
        ages = []
        if job.finished_at is not None:
            ages.append(f"finished {_age(job.finished_at, now)}")
        if job.held_at is not None:
            ages.append(f"held {_age(job.held_at, now)}")
        if job.created_at is not None:
            ages.append(f"created {_age(job.created_at, now)}")
        table.add_row(
            cell, state, str(job.retry_generation), str(job.handler_failures), "\n".join(ages)
        )
    console.print(table)


def _retry_line(details: JobDetails) -> str:
    if details.retry_enabled:
        return f"possible: genji-jobs retry {details.id} --generation {details.retry_generation}"
    if details.state == "held":
        return "blocked: resolve the uncertain send below first (genji-jobs resolve)"
    return f"not possible while the job is {details.state}"


def _workers(count: int, owner: str) -> str:
    return f"{count} {owner} worker{'' if count == 1 else 's'}"


def _group(budget: WorkerBudgetView, count: int, owner: str) -> str:
    if budget.failure_budget is None:
        return f"{_workers(count, owner)} recorded no schedule"
    verb = "retries" if count == 1 else "retry"
    return f"{_workers(count, owner)} {verb} up to {budget.failure_budget}"


def budget_text(details: JobDetails) -> str:
    """The failure budget as the workers of the job's owner recorded it in the database."""
    try:
        owner: str = REGISTRY.get(details.event_name).owner
    except UnknownEventError:
        owner = "registered"
    live = [b for b in details.worker_budgets if b.live]
    # Schedules with different delays but the same length agree on the budget.
    if len({b.failure_budget for b in live}) > 1:
        groups = ", ".join(_group(b, b.live, owner) for b in live)
        return f"live workers disagree: {groups}; the smallest is {details.failure_budget}"
    if live and live[0].failure_budget is not None:
        count = sum(b.live for b in live)
        return (
            f"retried up to {details.failure_budget} times, then held: the schedule "
            f"{'all ' if count > 1 else ''}{count} live {owner} "
            f"worker{'s' if count > 1 else ''} recorded"
        )
    if live:
        return (
            f"budget unknown: the live {owner} workers recorded no retry schedule; the "
            f"default is {details.failure_budget}"
        )
    if any(b.failure_budget is not None for b in details.worker_budgets):
        return (
            f"retried up to {details.failure_budget} times, then held, as {owner} workers "
            "last recorded: none is alive now"
        )
    return (
        f"budget unknown: no {owner} worker has recorded its retry schedule; "
        f"the default is {details.failure_budget}"
    )


def render_details(console: Console, details: JobDetails, now: datetime) -> None:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column(overflow="fold")
    held = _stamp(details.held_at)
    if details.held_at is not None:
        held += f" ({_age(details.held_at, now)} ago)"
    rows = [
        ("job", str(details.id)),
        ("event", details.event_name),
        ("event key", details.event_key or "-"),
        ("entity key", details.entity_key or "-"),
        ("state", f"{details.state} (public status {details.status or 'unknown'})"),
        ("generation", str(details.retry_generation)),
        ("failures", f"{details.handler_failures} this generation ({budget_text(details)})"),
        ("attempts", f"{details.attempts} (queue attempts, deferrals included)"),
        ("created", _stamp(details.created_at)),
        ("held", held),
        ("last error", _error(details.error_code, details.error_msg) or "-"),
        ("retry", _retry_line(details)),
    ]
    for name, value in rows:
        facts.add_row(name, value)
    console.print(facts)
    _receipts(console, details.receipts)
    _bindings(console, details.bindings)
    _actions(console, details.actions)


def _heading(console: Console, title: str, count: int) -> None:
    console.print()
    console.print(Text(f"{title} ({count})", style="bold"))


def _receipts(console: Console, receipts: list[ReceiptView]) -> None:
    _heading(console, "Effects recorded", len(receipts))
    if not receipts:
        return
    table = _table("effect", "done", "started", "completed")
    for receipt in receipts:
        table.add_row(
            receipt.effect_key,
            "yes" if receipt.completed else "no",
            _short_stamp(receipt.created_at),
            _short_stamp(receipt.completed_at),
        )
    console.print(table)


def _ids(binding: BindingView) -> str:
    parts = [
        f"{name} {value}"
        for name, value in (
            ("channel", binding.channel_id),
            ("message", binding.message_id),
            ("thread", binding.thread_id),
        )
        if value is not None
    ]
    return "\n".join(parts) or "-"


def _bindings(console: Console, bindings: list[BindingView]) -> None:
    _heading(console, "Discord sends", len(bindings))
    if not bindings:
        return
    table = _table("effect / destination", "state / updated", "ids")
    table.columns[2].no_wrap = True
    for binding in bindings:
        state = Text(binding.state, style="bold red" if binding.state == "uncertain" else "")
        state.append(f"\n{_minute(binding.updated_at)}", style="")
        table.add_row(f"{binding.effect_key}\n{binding.destination}", state, _ids(binding))
    console.print(table)


def _actions(console: Console, actions: list[ActionView]) -> None:
    _heading(console, "Operator actions", len(actions))
    if not actions:
        return
    table = _table("#", "action / actor", "gen", "outcome", "at / reason")
    for action in actions:
        when = _short_stamp(action.created_at)
        if action.reason:
            when += f"\n{action.reason}"
        gen = "-" if action.expected_generation is None else str(action.expected_generation)
        table.add_row(
            str(action.id), f"{action.action}\n{action.actor_id}", gen, action.outcome, when
        )
    console.print(table)


def render_result(console: Console, result: RecoveryResult, next_step: str | None) -> None:
    console.print(Text(f"{result.outcome}: ", style="bold").append(result.message, style=""))
    console.print(
        f"job {result.job_id}  generation {result.retry_generation}  state {result.state}"
    )
    if next_step:
        console.print(next_step, markup=False)
