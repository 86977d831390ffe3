"""Where a server backend's CPU goes, by the stage of statement processing, sampled with Linux
`perf` while a benchmark runs.

pg_stat_statements times a statement's run but not its executor start-up, and function
statistics cannot split a function's time into its statements' start-up, the PL/pgSQL
interpreter and the settings of its SET clauses. Sampling the backend's call stacks can: each
sample is charged to the innermost stage on its stack, so a statement started inside a
function counts as start-up, not as the run of the statement that called the function.
Without `perf` (or without the right to attach it) the profile is skipped with the reason.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from common import print_table

FREQUENCY_HZ = 999
_STOP_TIMEOUT_S = 30
_STARTED_TIMEOUT_S = 10
_SCRIPT_TIMEOUT_S = 120

# Stages, each named by the PostgreSQL functions that begin it. A sample goes to the stage of
# the innermost such function on its stack; a sample with none is "other".
STAGES: Sequence[tuple[str, frozenset[str]]] = (
    ("executor start-up", frozenset({"standard_ExecutorStart"})),
    ("statement run", frozenset({"standard_ExecutorRun", "standard_ExecutorFinish"})),
    ("executor shutdown", frozenset({"standard_ExecutorEnd"})),
    (
        "parse, plan, plan cache",
        frozenset(
            {
                "GetCachedPlan",
                "pg_plan_queries",
                "pg_plan_query",
                "raw_parser",
                "pg_analyze_and_rewrite_fixedparams",
                "pg_analyze_and_rewrite_varparams",
                "pg_analyze_and_rewrite_withcb",
            }
        ),
    ),
    ("PL/pgSQL interpreter", frozenset({"plpgsql_exec_function", "plpgsql_exec_trigger"})),
    ("SET clauses of functions", frozenset({"ProcessGUCArray", "AtEOXact_GUC"})),
    (
        "subtransactions",
        frozenset(
            {
                "BeginInternalSubTransaction",
                "ReleaseCurrentSubTransaction",
                "RollbackAndReleaseCurrentSubTransaction",
            }
        ),
    ),
    (
        "transaction start and end",
        frozenset({"StartTransactionCommand", "CommitTransactionCommand"}),
    ),
    ("parameters in, rows out", frozenset({"OidReceiveFunctionCall", "printtup"})),
    (
        "client messages and sockets",
        frozenset({"secure_read", "secure_write", "pq_getbyte", "__send", "__recv"}),
    ),
)
OTHER = "other"
# Counted across stages: what the AFTER triggers fired at a statement's end took, wherever it
# was charged.
TRIGGERS = "AfterTriggerEndQuery"
_STAGE_OF = {name: stage for stage, names in STAGES for name in names}
_FRAME = re.compile(r"^\s+[0-9a-f]+\s+(\S+?)(?:\+0x[0-9a-f]+)?\s+\(")


@dataclass
class Profile:
    samples: int = 0
    stages: Counter[str] = field(default_factory=Counter)
    in_triggers: int = 0
    cpu_s: float = 0.0
    """CPU seconds the backend used while sampled (/proc), to which the shares apply."""
    wall_s: float = 0.0
    """Seconds the sampling lasted."""
    skipped: str | None = None
    """Why there is no profile, if there is none."""

    def add(self, frames: Sequence[str]) -> None:
        """One sample's stack, innermost frame first."""
        self.samples += 1
        stage = next((_STAGE_OF[f] for f in frames if f in _STAGE_OF), OTHER)
        self.stages[stage] += 1
        if TRIGGERS in frames:
            self.in_triggers += 1


def parse_perf_script(lines: Iterator[str]) -> Profile:
    """A Profile of `perf script` output: a header line per sample, then its frames."""
    profile = Profile()
    frames: list[str] = []
    for line in lines:
        if not line.strip():
            if frames:
                profile.add(frames)
                frames = []
            continue
        match = _FRAME.match(line)
        if match:
            frames.append(match.group(1))
    if frames:
        profile.add(frames)
    return profile


def perf_missing() -> str | None:
    """Why this machine cannot profile a backend, or None if it can try."""
    if shutil.which("perf") is None:
        return "perf is not installed"
    return None


@asynccontextmanager
async def sampled(pid: int) -> AsyncIterator[Profile]:
    """Sample backend `pid` from when the sampling has begun until the block ends; the
    Profile is filled in after the block."""
    profile = Profile(skipped=perf_missing())
    if profile.skipped is not None:
        yield profile
        return
    with tempfile.TemporaryDirectory(prefix="genji-perf-") as scratch:
        data = Path(scratch) / "perf.data"
        recorder = await asyncio.create_subprocess_exec(
            *("perf", "record", "-F", str(FREQUENCY_HZ), "-g", "-p", str(pid), "-o", str(data)),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            # perf creates its file before it attaches, so the first samples may come a little
            # after the window opens: the shares are of the samples taken, and apply to the
            # backend's CPU time over the whole window.
            deadline = time.monotonic() + _STARTED_TIMEOUT_S
            while not data.exists() and recorder.returncode is None:
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.01)
            began, cpu = time.perf_counter(), _cpu_seconds(pid)
            yield profile
            profile.wall_s = time.perf_counter() - began
            ended = _cpu_seconds(pid)
            if cpu is None or ended is None:
                profile.skipped = "the backend exited while it was sampled"
            else:
                profile.cpu_s = ended - cpu
        finally:
            await _stop(recorder, profile)
        if profile.skipped is None:
            await asyncio.to_thread(_read, data, profile)


def _cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of process `pid` so far; None once it has exited."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    # utime and stime are the 14th and 15th fields; the split starts at the 3rd.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _stop(recorder: asyncio.subprocess.Process, profile: Profile) -> None:
    if recorder.returncode is None:
        recorder.send_signal(signal.SIGINT)
    try:
        _, errors = await asyncio.wait_for(recorder.communicate(), _STOP_TIMEOUT_S)
    except TimeoutError:
        recorder.kill()
        await recorder.communicate()
        profile.skipped = "perf record did not stop"
        return
    if recorder.returncode not in (0, -signal.SIGINT):
        said = errors.decode(errors="replace").strip().splitlines()[-1:]
        profile.skipped = f"perf record failed: {said[0] if said else recorder.returncode}"


def _read(data: Path, profile: Profile) -> None:
    if not data.exists() or data.stat().st_size == 0:
        profile.skipped = "perf record wrote nothing"
        return
    try:
        script = subprocess.run(
            ["perf", "script", "--no-inline", "-i", str(data)],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PAGER": "cat"},
            timeout=_SCRIPT_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        profile.skipped = "perf script did not finish"
        return
    parsed = parse_perf_script(iter(script.stdout.splitlines()))
    if parsed.samples == 0:
        profile.skipped = "perf recorded no sample of the backend"
        return
    profile.samples = parsed.samples
    profile.stages = parsed.stages
    profile.in_triggers = parsed.in_triggers


def print_profile(title: str, profile: Profile, jobs: int) -> None:
    """The share of the backend's sampled CPU per stage, and its CPU microseconds per job."""
    if profile.skipped is None and jobs < 1:
        profile.skipped = "no job ran while it was sampled"
    if profile.skipped is not None:
        print(f"\n{title}: CPU profile skipped ({profile.skipped})")
        return
    us_per_sample = 1e6 * profile.cpu_s / profile.samples / jobs

    def row(name: str, count: int) -> list[str]:
        return [name, f"{100 * count / profile.samples:.1f}%", f"{count * us_per_sample:.0f}"]

    rows = [row(stage, profile.stages[stage]) for stage, _ in STAGES]
    rows.append(row(OTHER, profile.stages[OTHER]))
    rows.append(row("all", profile.samples))
    rows.append(row("(of all: in triggers)", profile.in_triggers))
    print_table(
        f"{title}: wall {1e6 * profile.wall_s / jobs:.0f} us/job, of which the backend's CPU "
        f"{1e6 * profile.cpu_s / jobs:.0f}, by stage ({profile.samples} samples)",
        ["share", "us/job"],
        rows,
        "stage",
    )
