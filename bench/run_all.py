"""Every queue benchmark in one run (`just bench`), then every target with its verdict.

uv run --frozen python bench/run_all.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Sequence

import api_submissions
import drain
import drain_parts
import drain_wide
import enqueue
import enqueue_batch
import enqueue_parts
import latency
import recovery
import scale
from common import Target


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


async def run_all(quick: bool) -> list[Target]:
    targets: list[Target] = []
    for title, run in (
        ("enqueue", enqueue.run),
        ("batch enqueue", enqueue_batch.run),
        ("drain", drain.run),
        ("latency", latency.run),
        ("recovery", recovery.run),
        ("API submissions", api_submissions.run),
        ("scale", scale.run),
    ):
        print(f"\n=== {title} ({load()})", flush=True)
        targets.extend(await run(quick))
    print(f"\n=== enqueue_job's parts ({load()})", flush=True)
    await enqueue_parts.run(quick)
    print(f"\n=== drain parts ({load()})", flush=True)
    await drain_parts.run(quick)
    print(f"\n=== drain beyond the spec settings ({load()})", flush=True)
    targets.extend(await drain_wide.run(quick))
    return targets


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer samples, for a smoke run")
    args = parser.parse_args(argv)
    began = time.monotonic()
    targets = asyncio.run(run_all(args.quick))
    print(f"\n=== targets ({load()}; total {time.monotonic() - began:.0f}s)")
    for target in targets:
        print(target.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
