"""`python -m genji_devstack.soak` (`just soak`): a chaos soak of the whole stack.

A private durable cluster, the API with its worker, two real bots (discord.py) against the
loopback stand-in of Discord, and the fake OCR; a mixed workload through the real routes while
faults are injected; then quiescence, recovery of held jobs through the recovery service, and
the checks. Exits 1 on any loss, duplicate,
unsettled job, idle worker or unreached entrypoint. docs/soak.md explains the output.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from genji_devstack.soak import checks
from genji_devstack.soak.faults import CLASSES, Injector
from genji_devstack.soak.operator import Recovery, recover_held
from genji_devstack.soak.report import final_report, progress
from genji_devstack.soak.stack import running_stack
from genji_devstack.soak.workload import Workload

DEFAULT_SEED = 20261201


@dataclass(frozen=True)
class Options:
    submissions: int
    seed: int
    faults: int
    """Injections of each fault class."""
    duration: float
    """Seconds over which submissions and faults are spread."""
    settle: float
    """Deadline for quiescence and recovery."""
    bots: int
    hold: float
    """Scales how long lasting faults last."""
    progress_every: float
    keep: bool
    dir: Path | None
    """Where the logs go (kept); a fresh /tmp directory otherwise."""


def parse(argv: list[str] | None) -> Options:
    parser = argparse.ArgumentParser(description="chaos soak of the whole stack")
    parser.add_argument("--submissions", type=int, default=None, help="default 1000 (short: 40)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--faults", type=int, default=None, help="per class; default 10 (short: 1)")
    parser.add_argument("--duration", type=float, default=None, help="seconds; default scaled")
    parser.add_argument("--settle", type=float, default=None, help="quiescence deadline, seconds")
    parser.add_argument("--short", action="store_true", help="small counts for the test suite")
    parser.add_argument("--keep", action="store_true", help="keep the services' logs")
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="write the services' logs here and keep them",
    )
    args = parser.parse_args(argv)
    submissions = args.submissions or (36 if args.short else 1000)
    faults = args.faults if args.faults is not None else (1 if args.short else 10)
    duration = args.duration or (16.0 if args.short else faults * len(CLASSES) * 5.0)
    return Options(
        submissions=submissions,
        seed=args.seed,
        faults=faults,
        duration=duration,
        settle=args.settle or (45.0 if args.short else 300.0),
        bots=2,
        hold=0.4 if args.short else 1.0,
        progress_every=5.0 if args.short else 15.0,
        keep=args.keep,
        dir=args.dir,
    )


async def soak(options: Options, root: Path) -> int:
    began = time.monotonic()
    rng = random.Random(options.seed)
    print(
        f"soak: seed {options.seed}, {options.submissions} submissions, {options.faults} of "
        f"each of {len(CLASSES)} fault classes over {options.duration:.0f}s; files in {root}",
        flush=True,
    )
    async with running_stack(root, options.bots) as stack:
        print(f"private cluster: {stack.cluster.durability}; API {stack.url}", flush=True)
        workload = Workload(
            stack, random.Random(rng.random()), options.submissions, options.duration
        )
        injector = Injector(
            stack,
            random.Random(rng.random()),
            options.faults,
            options.duration,
            options.hold,
            nudge=workload.submit,
        )
        print(f"stack started in {time.monotonic() - began:.0f}s", flush=True)
        if not await injector.until_serving():
            print("the stack never became ready", flush=True)
            return 2
        start = time.monotonic()
        planned = options.faults * len(CLASSES)

        async def report_progress() -> None:
            while True:
                await asyncio.sleep(options.progress_every)
                line = progress(
                    time.monotonic() - start,
                    len(workload.submissions),
                    options.submissions,
                    workload.counts(),
                    len(injector.injections),
                    planned,
                )
                print(line, flush=True)

        async def supervise() -> None:
            # A service that dies on its own between faults is started again at once.
            while True:
                await asyncio.sleep(0.5)
                for name in stack.restart_dead():
                    print(f"[soak] {name} died on its own; started again", flush=True)

        reporter = asyncio.create_task(report_progress())
        supervisor = asyncio.create_task(supervise())
        try:
            await asyncio.gather(workload.run(), injector.run())
            await injector.until_healthy()
            print("workload and faults done; waiting for quiescence, then recovering", flush=True)
            print(f"[soak {time.monotonic() - start:6.1f}s] settling", flush=True)
            recovery = Recovery()
            states = await recover_held(stack, recovery, options.settle)
            print(f"[soak {time.monotonic() - start:6.1f}s] settled: {states}", flush=True)
        finally:
            reporter.cancel()
            supervisor.cancel()
        results = checks.Results()
        conn = await stack.connect()
        try:
            await checks.check_lost(conn, workload.submissions, results)
            await checks.check_intents(conn, workload.submissions, results)
            await checks.check_domain_duplicates(conn, results)
            await checks.check_coverage(conn, results)
            await checks.check_settled(conn, states, results)
            await checks.check_workers(conn, stack, results)
            await checks.check_sends(conn, stack, recovery, results)
        finally:
            await conn.close()
        checks.lost_reply_share(injector.injections, recovery, results)
        checks.check_holds(recovery, results)
        lines = final_report(
            injector.injections,
            results,
            recovery,
            workload.counts(),
            stack.restarts,
            workload.refusals(),
        )
        print("\n".join(lines), flush=True)
        print(f"soak took {time.monotonic() - began:.0f}s", flush=True)
    return 1 if results.findings else 0


def main(argv: list[str] | None = None) -> int:
    options = parse(argv)
    if options.dir is not None:
        root = options.dir
        root.mkdir(parents=True, exist_ok=True)
    else:
        root = Path(tempfile.mkdtemp(prefix="genji-soak-", dir="/tmp"))
    try:
        return asyncio.run(soak(options, root))
    finally:
        if options.keep or options.dir is not None:
            print(f"logs kept in {root}", flush=True)
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
