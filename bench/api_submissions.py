"""Guide and completion submissions through the real HTTP routes at 1 and 8 concurrent clients,
on a durable server and with fsync off, and the share of server time spent in enqueue.

  guide       POST /api/v3/maps/{code}/guides {url, user_id}: the guide, its Guide XP and
              newsfeed entry, with their jobs, in one transaction
  completion  POST /api/v3/completions/ {code, user_id, time, screenshot}: a screenshot-only
              run of an unflagged user, the usual submission: the run and its OCR job in one
              transaction (OCR itself runs later, in the job)

The API runs in its own process (bench/api_server.py: the real application under uvicorn on
loopback), which adds up its whole-request server time and the time of every call of
genji_queue's enqueue wrappers (enqueue_job_raw, and enqueue_jobs, which takes a guide's two
jobs in one call). The client is httpx in this process with a superuser key.
Every request submits something new: a fresh (user, map) pair each, so no request waits on
another's user or map lock and every completion is the pair's first run. Per route and client
count: warm-up requests, then the timed ones, from counters zeroed just before them; the
enqueue share is enqueue seconds over request seconds of exactly those requests.

    uv run --frozen python bench/api_submissions.py [--quick]
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from common import (
    DURABLE,
    FSYNC_OFF,
    MODES,
    Database,
    Mode,
    Target,
    bench_cluster,
    bench_main,
    describe_server,
    migrated_database,
    percentile,
    print_table,
    print_targets,
)
from genji_api.auth.tokens import issue_token
from genji_devstack.child_process import ChildProcess
from genji_devstack.ports import free_port

DATABASE = "genji_bench_api"
SERVER = Path(__file__).with_name("api_server.py")
GUIDE = "guide"
COMPLETION = "completion"
ROUTES = (GUIDE, COMPLETION)
CLIENTS = (1, 8)
# Enqueue's share of server time, percent, judged at the highest client count.
SHARE_TARGET = 15.0
BASE_USER_ID = 10**18  # real-looking Discord snowflakes
CREATOR_ID = BASE_USER_ID
REQUEST_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Sizes:
    n: int
    warmup: int


SIZES = {DURABLE: Sizes(n=400, warmup=30), FSYNC_OFF: Sizes(n=600, warmup=30)}
QUICK = {DURABLE: Sizes(n=40, warmup=8), FSYNC_OFF: Sizes(n=40, warmup=8)}


@dataclass(frozen=True)
class ServerTotals:
    """What bench/api_server.py counted since its last reset."""

    requests: int
    request_s: float
    enqueues: int
    enqueue_s: float


@dataclass(frozen=True)
class Result:
    route: str
    clients: int
    latencies_s: list[float]
    wall_s: float
    server: ServerTotals

    @property
    def name(self) -> str:
        return f"{self.route}, {self.clients} client{'s' if self.clients > 1 else ''}"

    def latency_ms(self, cut: int) -> float:
        return percentile(self.latencies_s, cut) * 1e3

    @property
    def rate(self) -> float:
        return len(self.latencies_s) / self.wall_s

    @property
    def share(self) -> float:
        """Enqueue's share of server time, percent."""
        return 100 * self.server.enqueue_s / self.server.request_s

    @property
    def server_ms(self) -> float:
        return 1e3 * self.server.request_s / self.server.requests

    @property
    def enqueue_ms(self) -> float:
        return 1e3 * self.server.enqueue_s / self.server.requests

    @property
    def enqueues_per_request(self) -> float:
        return self.server.enqueues / self.server.requests


# -- data ------------------------------------------------------------------------------------


def map_code(k: int) -> str:
    return f"B{k:05d}"


def user_id(k: int) -> int:
    return BASE_USER_ID + k


async def seed(database: Database, count: int) -> str:
    """Users 1..count and official, approved maps 1..count (one creator for all); returns a
    superuser API key."""
    conn = await database.connect()
    try:
        async with conn.transaction():
            await conn.execute(
                "INSERT INTO core.users (id, nickname, global_name) "
                "SELECT $1::bigint + n, 'bench' || n, 'bench' || n FROM generate_series(0, $2) n",
                BASE_USER_ID,
                count,
            )
            await conn.execute(
                "INSERT INTO core.maps (code, map_name, official, playtesting, hidden, "
                "raw_difficulty) SELECT 'B' || lpad(n::text, 5, '0'), 'Hanamura', true, "
                "'Approved', false, 5.0 FROM generate_series(1, $1) n",
                count,
            )
            await conn.execute(
                "INSERT INTO maps.creators (map_id, user_id, is_primary) "
                "SELECT id, $1, true FROM core.maps",
                CREATOR_ID,
            )
            key = await issue_token(conn, "bench", superuser=True)
        await conn.execute("ANALYZE core.users, core.maps, maps.creators")
        return key
    finally:
        await conn.close()


def request(route: str, k: int) -> tuple[str, dict[str, Any]]:
    """The k-th submission of `route`: a (user, map) pair no other request uses."""
    if route == GUIDE:
        return f"/api/v3/maps/{map_code(k)}/guides", {
            "url": f"https://youtu.be/guide{k}",
            "user_id": user_id(k),
        }
    return "/api/v3/completions/", {
        "code": map_code(k),
        "user_id": user_id(k),
        "time": 100.0,
        "screenshot": f"https://img.example/run{k}.png",
    }


# -- the API process -------------------------------------------------------------------------


def spawn_api(database: Database, log_dir: Path) -> tuple[ChildProcess, str]:
    port = free_port()
    command = [sys.executable, str(SERVER), "--database-url", database.dsn, "--port", str(port)]
    api = ChildProcess("the API process", command, dict(os.environ), log_dir / "api.log")
    api.spawn()
    return api, f"http://127.0.0.1:{port}"


async def start_api(database: Database, log_dir: Path) -> tuple[ChildProcess, str]:
    """The API process and its URL, once it answers /healthcheck."""
    api, url = spawn_api(database, log_dir)

    async def healthy() -> bool:
        try:
            async with httpx.AsyncClient(base_url=url) as client:
                return (await client.get("/healthcheck")).status_code == 200
        except httpx.TransportError:
            return False

    try:
        await api.until_ready(healthy, 60.0, "answering /healthcheck")
    except BaseException:
        api.stop(10)
        raise
    return api, url


# -- the client ------------------------------------------------------------------------------


async def burst(
    client: httpx.AsyncClient, route: str, ks: Sequence[int], clients: int
) -> tuple[list[float], float]:
    """`clients` concurrent loops sharing the submissions `ks`; returns (latencies, wall s)."""
    pending: Iterator[int] = iter(ks)
    latencies: list[float] = []

    async def one_client() -> None:
        for k in pending:
            path, body = request(route, k)
            began = time.perf_counter()
            response = await client.post(path, json=body)
            latencies.append(time.perf_counter() - began)
            if response.status_code != 201:
                raise RuntimeError(f"{route} {k}: HTTP {response.status_code} {response.text}")

    began = time.perf_counter()
    await asyncio.gather(*(one_client() for _ in range(clients)))
    return latencies, time.perf_counter() - began


async def measure_case(
    database: Database,
    client: httpx.AsyncClient,
    route: str,
    clients: int,
    ks: Iterator[int],
    sizes: Sizes,
) -> Result:
    await burst(client, route, list(itertools.islice(ks, sizes.warmup)), clients)
    await database.checkpoint()
    (await client.post("/__bench/reset")).raise_for_status()
    latencies, wall = await burst(client, route, list(itertools.islice(ks, sizes.n)), clients)
    server = ServerTotals(**(await client.get("/__bench/stats")).raise_for_status().json())
    if server.requests != sizes.n or server.enqueues == 0:
        raise RuntimeError(f"{route}: the server counted {server} for {sizes.n} requests")
    result = Result(route, clients, latencies, wall, server)
    print(
        f"  {result.name}: p50 {result.latency_ms(50):.2f} ms, {result.rate:,.0f}/s, "
        f"enqueue {result.share:.1f}% of server time",
        flush=True,
    )
    return result


async def measure(mode: Mode, sizes: Sizes, log_dir: Path) -> list[Result]:
    per_case = sizes.warmup + sizes.n
    with bench_cluster(mode) as cluster:
        database = await migrated_database(cluster, DATABASE)
        key = await seed(database, per_case * len(ROUTES) * len(CLIENTS))
        conn = await database.connect()
        try:
            print(f"\n{await describe_server(conn, mode)}")
        finally:
            await conn.close()
        print(
            f"  API: one uvicorn process on loopback; client: httpx in the benchmark process; "
            f"{sizes.warmup} warm-up + {sizes.n} timed requests per route and client count"
        )
        api, url = await start_api(database, log_dir)
        try:
            ks = itertools.count(1)
            async with httpx.AsyncClient(
                base_url=url, headers={"X-API-KEY": key}, timeout=REQUEST_TIMEOUT_S
            ) as client:
                return [
                    await measure_case(database, client, route, clients, ks, sizes)
                    for route in ROUTES
                    for clients in CLIENTS
                ]
        except BaseException:
            print(f"API log:\n{api.last_lines()}")
            raise
        finally:
            api.stop(10)


# -- report ----------------------------------------------------------------------------------


def print_results(mode: Mode, results: Sequence[Result]) -> None:
    columns = [
        "p50 ms",
        "p99 ms",
        "requests/s",
        "server ms/req",
        "enqueue ms/req",
        "enqueue calls/req",
        "enqueue share",
    ]
    rows = [
        [
            r.name,
            f"{r.latency_ms(50):.2f}",
            f"{r.latency_ms(99):.2f}",
            f"{r.rate:,.0f}",
            f"{r.server_ms:.2f}",
            f"{r.enqueue_ms:.2f}",
            f"{r.enqueues_per_request:.1f}",
            f"{r.share:.1f}%",
        ]
        for r in results
    ]
    print_table(f"API submissions [{mode.label}]", columns, rows, "route, clients")


def print_side_by_side(by_mode: dict[Mode, list[Result]]) -> None:
    modes = list(by_mode)
    columns = [
        *(f"{m.label} p50/p99" for m in modes),
        *(f"{m.label} req/s" for m in modes),
        *(f"{m.label} share" for m in modes),
    ]
    rows = []
    for index, first in enumerate(by_mode[modes[0]]):
        same = [by_mode[m][index] for m in modes]
        rows.append(
            [
                first.name,
                *(f"{r.latency_ms(50):.2f}/{r.latency_ms(99):.2f}" for r in same),
                *(f"{r.rate:,.0f}" for r in same),
                *(f"{r.share:.1f}%" for r in same),
            ]
        )
    title = "side by side: latency ms (p50/p99), requests/s, enqueue share of server time"
    print_table(title, columns, rows, "route, clients")


def report(by_mode: dict[Mode, list[Result]]) -> list[Target]:
    for mode, results in by_mode.items():
        print_results(mode, results)
    print_side_by_side(by_mode)
    targets = [
        Target(
            f"enqueue share of server time, {r.route} at {r.clients} clients",
            mode,
            r.share,
            SHARE_TARGET,
            "%",
        )
        for mode, results in by_mode.items()
        for r in results
    ]
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    sizes = QUICK if quick else SIZES
    with tempfile.TemporaryDirectory(prefix="genji-bench-api-") as log_dir:
        by_mode = {mode: await measure(mode, sizes[mode], Path(log_dir)) for mode in MODES}
    return report(by_mode)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "API submissions", run))
