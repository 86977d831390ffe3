"""`genji-jobs` (also `python -m genji_api.jobs`): the operator's commands for queued work.
Reads and recovery actions call the same services as the API routes, with the API's settings
(DATABASE_URL, the owner login; QUEUE_OPERATOR_IDS) and an operator context of source "cli"."""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import ParamSpec, TypeVar
from uuid import UUID, uuid4

import click
from genji_sdk.inspection import JobDetails, JobList
from genji_sdk.recovery import (
    DiscardRequest,
    OperatorContext,
    RecoveryResult,
    ResolveEffectRequest,
    RetryRequest,
)
from rich.console import Console

from genji_api.database import Database
from genji_api.jobs import service as jobs
from genji_api.jobs.cli_render import (
    print_json,
    print_rich,
    render_details,
    render_list,
    render_result,
)
from genji_api.jobs.cli_resolve import resolve_job
from genji_api.jobs.cli_session import CommandError, Exit, load_settings, run
from genji_api.recovery import service as recovery
from genji_api.settings import ApiSettings

P = ParamSpec("P")
T = TypeVar("T")

EXIT_BUG = 70
CONTEXT = OperatorContext(source="cli")
LIST_LIMIT = 500

HELP = """Inspect queued jobs and recover held ones, through the same services as the API's
/internal/jobs routes. Run as the API: DATABASE_URL is the owner login, QUEUE_OPERATOR_IDS
the operators allowed to act (the alert recipient by default).

JOB_ID, wherever a command takes a job, is its public UUID, a unique prefix of it (8 hex
digits or more, as the Discord stand-in's report prints), or its queue id (the integer the
worker logs print beside the UUID).

\b
Exit status:
  0  read, or the action accepted (now, or by an earlier run with its --key)
  1  rejected (stale generation, running, uncertain send, ...) or the key
     belongs to another action: nothing changed
  2  usage: bad options or arguments, a missing setting
  3  no such job (or no such send of the job)
  4  forbidden: the actor is not in QUEUE_OPERATOR_IDS; nothing changed
  5  the database cannot be reached, refused the login, or is not migrated
  6  the job's queue metadata is inconsistent: reconcile it by hand
  7  JOB_ID matches several jobs: the candidates are listed (at most 10);
     give more of the UUID
  70 unexpected error (a bug); an action may have been recorded: rerun it
     with the same --key to learn its result
"""

ACTION_HELP = """

The action is idempotent per key: each run makes a new key and prints it, unless --key is
given. If the result was lost (exit 5, 70), rerun with the same --key: it answers the recorded
outcome as `duplicate` (exit 0 when that outcome was accepted) and changes nothing more."""


class Options:
    def __init__(self, database_url: str | None) -> None:
        self.database_url = database_url

    def settings(self) -> ApiSettings:
        return load_settings(self.database_url)


def _stderr() -> Console:
    # Notes and errors are single lines the terminal wraps: a key or an id is never broken.
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _reports_errors(command: Callable[P, None]) -> Callable[P, None]:
    """A CommandError ends the command with its exit status: its message on stderr and, for
    --json, the API's error body on stdout."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            command(*args, **kwargs)
        except CommandError as error:
            if kwargs.get("as_json"):
                print_json({"error": error.message, "extra": error.extra})
            _stderr().print(f"error: {error.message}", markup=False)
            sys.exit(error.code)

    return wrapper


def _job_argument(command: Callable[P, None]) -> Callable[P, None]:
    return click.argument("job_id", metavar="JOB_ID")(command)


def _json_option(command: Callable[P, None]) -> Callable[P, None]:
    return click.option(
        "--json", "as_json", is_flag=True, help="Print the SDK struct as JSON (for scripts)."
    )(command)


def _action_options(command: Callable[P, None]) -> Callable[P, None]:
    for option in reversed(
        (
            click.option(
                "--actor",
                type=click.IntRange(min=1),
                metavar="ID",
                envvar="GENJI_OPERATOR_ID",
                required=True,
                help="Your Discord user id (or GENJI_OPERATOR_ID); it must be in "
                "QUEUE_OPERATOR_IDS.",
            ),
            click.option(
                "--generation",
                type=click.IntRange(min=0),
                metavar="G",
                help="The retry generation you inspected (default: the current one, read "
                "first and printed).",
            ),
            click.option(
                "--key",
                metavar="KEY",
                help="Idempotency key (default: a new one, printed). Reuse it to rerun safely.",
            ),
        )
    ):
        command = option(command)
    return _json_option(command)


@click.group(help=HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--database",
    envvar="DATABASE_URL",
    metavar="URL",
    help="The API's database, as its owner login (default: DATABASE_URL).",
)
@click.pass_context
def cli(ctx: click.Context, database: str | None) -> None:
    ctx.obj = Options(database)


@cli.command("list", short_help="List active jobs, or finished ones with --state.")
@click.option(
    "--state",
    type=click.Choice(jobs.LIST_STATES),
    help="Only jobs in this state (default: the active ones: pending, retrying, running, "
    "held). uncertain: held with an unresolved send; succeeded and discarded: finished, most "
    "recently finished first; all: active and finished, newest first.",
)
@click.option("--entrypoint", metavar="E", help="Only jobs of this event, e.g. api.xp.grant.")
@click.option(
    "--limit",
    type=click.IntRange(min=1, max=LIST_LIMIT),
    default=50,
    show_default=True,
    help=f"At most this many jobs (1 to {LIST_LIMIT}).",
)
@_json_option
@click.pass_obj
@_reports_errors
def list_command(
    options: Options, state: str | None, entrypoint: str | None, limit: int, as_json: bool
) -> None:
    """List jobs: by default the unfinished ones (pending, running, retrying and held;
    uncertain: held with an uncertain Discord send); --state succeeded, discarded or all
    shows finished ones too."""
    settings = options.settings()
    listing: JobList = run(
        settings,
        lambda db: jobs.list_jobs(db, state=state, entrypoint=entrypoint, limit=limit),
    )
    if as_json:
        print_json(listing)
        return
    filters = "".join(
        f", {name} {value}" for name, value in (("state", state), ("event", entrypoint)) if value
    )
    now = datetime.now(UTC)
    print_rich(lambda console: render_list(console, listing, now, filters))


@cli.command("show", short_help="Show one job, its effects and its audit.")
@_job_argument
@_json_option
@click.pass_obj
@_reports_errors
def show_command(options: Options, job_id: str, as_json: bool) -> None:
    """One job: state, generation, failures and budget, attempts, last error, the effects it
    recorded, its Discord sends and the operator actions on it."""

    async def work(db: Database) -> JobDetails:
        return await jobs.job_details(db, await resolve_job(db, job_id))

    details: JobDetails = run(options.settings(), work)
    if as_json:
        print_json(details)
        return
    now = datetime.now(UTC)
    print_rich(lambda console: render_details(console, details, now))


Action = Callable[[Database, ApiSettings, UUID, int, str], Awaitable[RecoveryResult]]


def _act(
    options: Options,
    reference: str,
    key: str | None,
    generation: int | None,
    as_json: bool,
    action: Action,
) -> None:
    """Print the key, read the current generation unless given, run the action once, print
    its outcome and exit 0 (accepted now or before under this key) or 1."""
    settings = options.settings()
    key = key or f"cli:{uuid4()}"
    notes = _stderr()
    notes.print(f"idempotency key: {key}", markup=False)

    async def work(db: Database) -> RecoveryResult:
        job_id = await resolve_job(db, reference)
        if str(job_id) != reference.strip().lower():
            notes.print(f"job: {job_id}", markup=False)
        expected = generation
        if expected is None:
            current = await jobs.job_details(db, job_id)
            expected = current.retry_generation
            notes.print(f"current generation: {expected} (state {current.state})", markup=False)
        return await action(db, settings, job_id, expected, key)

    try:
        result = run(settings, work)
    except CommandError as error:
        if error.code == Exit.UNAVAILABLE:
            error.message += f"; rerun with --key {key} to learn whether it was recorded"
        raise
    if as_json:
        print_json(result)
    else:
        print_rich(lambda console: render_result(console, result, _next_step(result)))
    done = result.outcome == "accepted" or (
        result.outcome == "duplicate" and result.recorded_outcome == "accepted"
    )
    if not done:
        sys.exit(Exit.REJECTED)


def _next_step(result: RecoveryResult) -> str | None:
    if result.outcome == "reconciliation_required":
        return "next: settle its uncertain send with genji-jobs resolve, then retry"
    if result.outcome == "stale_generation":
        return f"next: genji-jobs show {result.job_id}"
    if result.outcome == "accepted" and result.state == "held":
        return f"next: genji-jobs retry {result.job_id}"
    return None


@cli.command(
    "retry",
    short_help="Requeue a held job as its next generation.",
    help="Requeue a held job as its next generation; its completed effects "
    "are kept, its failure budget is reset." + ACTION_HELP,
)
@_job_argument
@_action_options
@click.pass_obj
@_reports_errors
def retry_command(
    options: Options,
    job_id: str,
    actor: int,
    generation: int | None,
    key: str | None,
    as_json: bool,
) -> None:
    async def action(
        db: Database, settings: ApiSettings, parsed: UUID, expected: int, key: str
    ) -> RecoveryResult:
        request = RetryRequest(
            expected_generation=expected, idempotency_key=key, actor_id=actor, context=CONTEXT
        )
        return await recovery.retry_job(db, settings, parsed, request)

    _act(options, job_id, key, generation, as_json, action)


@cli.command(
    "discard",
    short_help="End a held job for good (a reason is required).",
    help="End a held job for good: its queue row is removed and later "
    "jobs of its entity stop waiting for it. Never the default: a reason is "
    "required." + ACTION_HELP,
)
@_job_argument
@click.option("--reason", required=True, help="Why the job can never run (1 to 500 chars).")
@_action_options
@click.pass_obj
@_reports_errors
def discard_command(
    options: Options,
    job_id: str,
    reason: str,
    actor: int,
    generation: int | None,
    key: str | None,
    as_json: bool,
) -> None:
    async def action(
        db: Database, settings: ApiSettings, parsed: UUID, expected: int, key: str
    ) -> RecoveryResult:
        request = DiscardRequest(
            expected_generation=expected,
            idempotency_key=key,
            actor_id=actor,
            reason=reason,
            context=CONTEXT,
        )
        return await recovery.discard_job(db, settings, parsed, request)

    _act(options, job_id, key, generation, as_json, action)


@cli.command(
    "resolve",
    short_help="Settle an uncertain Discord send of a held job.",
    help="Settle an uncertain Discord send of a held job: --located "
    "records the message you found (--channel with --message or --thread), --resend "
    "records that it was not delivered and must be sent again. The job stays held: "
    "retry it next." + ACTION_HELP,
)
@_job_argument
@click.option("--effect", "effect_key", required=True, metavar="KEY", help="Its effect key.")
@click.option("--destination", required=True, metavar="D", help="Its destination.")
@click.option("--located", is_flag=True, help="The message exists: give its ids.")
@click.option("--resend", is_flag=True, help="It was not delivered: send it again.")
@click.option("--channel", type=click.IntRange(min=1), metavar="C", help="Channel id found.")
@click.option("--message", type=click.IntRange(min=1), metavar="M", help="Message id found.")
@click.option("--thread", type=click.IntRange(min=1), metavar="T", help="Thread id found.")
@click.option("--reason", help="Why (recorded in the audit).")
@_action_options
@click.pass_obj
@_reports_errors
def resolve_command(
    options: Options,
    job_id: str,
    effect_key: str,
    destination: str,
    located: bool,
    resend: bool,
    channel: int | None,
    message: int | None,
    thread: int | None,
    reason: str | None,
    actor: int,
    generation: int | None,
    key: str | None,
    as_json: bool,
) -> None:
    if located == resend:
        raise click.UsageError("give exactly one of --located and --resend")
    if located and (channel is None or (message is None) == (thread is None)):
        raise click.UsageError("--located needs --channel and one of --message or --thread")
    if resend and (channel, message, thread) != (None, None, None):
        raise click.UsageError("--resend takes no --channel, --message or --thread")

    async def action(
        db: Database, settings: ApiSettings, parsed: UUID, expected: int, key: str
    ) -> RecoveryResult:
        request = ResolveEffectRequest(
            effect_key=effect_key,
            destination=destination,
            decision="located" if located else "resend",
            expected_generation=expected,
            idempotency_key=key,
            actor_id=actor,
            context=CONTEXT,
            channel_id=channel,
            message_id=message,
            thread_id=thread,
            reason=reason,
        )
        return await recovery.resolve_effect(db, settings, parsed, request)

    try:
        _act(options, job_id, key, generation, as_json, action)
    except CommandError as error:
        if error.code == Exit.NOT_FOUND:
            error.message = (
                f"{error.message.rstrip('.')} (or the job has no send {effect_key} "
                f"to {destination})."
            )
        raise


def main() -> None:
    try:
        cli.main(prog_name="genji-jobs")
    except Exception:
        traceback.print_exc()
        sys.exit(EXIT_BUG)
