"""Serving the API with its /metrics endpoint and reading it over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from genji_api.app import create_app
from genji_api.settings import ApiSettings
from genji_worker.settings import MetricsSettings
from litestar.testing import AsyncTestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.support.harness import eventually
from tests.support.testdb import Database

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(url: str) -> Samples:
    """Every sample the endpoint exports: (name, labels) -> value."""
    async with httpx.AsyncClient(timeout=5) as client:
        response = await client.get(url)
    response.raise_for_status()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


def names(samples: Samples) -> set[str]:
    return {name for name, _ in samples}


@asynccontextmanager
async def served_metrics(db: Database, run_worker: bool) -> AsyncIterator[str]:
    """The API app served on the test database with its /metrics on a free port: its URL."""
    settings = ApiSettings(
        database_url=db.dsn,
        pool_max_size=4,
        run_worker=run_worker,
        metrics=MetricsSettings(port=0, refresh_seconds=0.1),
    )
    app = create_app(settings)
    async with AsyncTestClient(app=app):
        yield app.state.metrics.url


async def scraped_when(url: str, ready: str) -> Samples:
    """The first scrape that has a refreshed queue snapshot with `ready` as a sample name."""

    async def probe() -> Samples | None:
        samples = await scrape(url)
        return samples if any(name == ready for name, _ in samples) else None

    return await eventually(probe, deadline=10, what=f"{ready} in {url}")
