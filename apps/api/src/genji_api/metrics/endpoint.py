"""The API process's /metrics endpoint, started and stopped by the app's lifespan."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from genji_worker import metrics as worker_metrics
from genji_worker.settings import MetricsSettings
from prometheus_client.core import Metric

from genji_api.database import Database
from genji_api.metrics.gauges import QueueGauges
from genji_api.metrics.schedule import run_gauge_refresh


class _ProcessSeries:
    """What this process exports: the queue gauges and the in-process worker's series."""

    def __init__(self, gauges: QueueGauges) -> None:
        self.gauges = gauges

    def collect(self) -> Iterator[Metric]:
        yield from self.gauges.collect()
        yield from worker_metrics.REGISTRY.collect()


class MetricsEndpoint:
    def __init__(self, database: Database, settings: MetricsSettings) -> None:
        self.gauges = QueueGauges()
        self._stop = asyncio.Event()
        self._refresh = asyncio.create_task(
            run_gauge_refresh(database, self.gauges, settings.refresh_seconds, self._stop),
            name="queue-metrics-refresh",
        )
        self.server = worker_metrics.start_metrics_server(settings, _ProcessSeries(self.gauges))

    @property
    def url(self) -> str:
        return self.server.url

    async def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(asyncio.CancelledError):
            await self._refresh
        await asyncio.to_thread(self.server.close)
