"""The Grafana dashboard is importable and every series its queries name is one the real API
endpoint (queue gauges and the API worker's series) exports."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.testdb import Database

from .scrape import names, scraped_when, served_metrics

pytestmark = pytest.mark.queue

DASHBOARD = Path(__file__).parents[2] / "deploy" / "grafana" / "genji-queue.json"
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset"}
KEYWORDS |= {"and", "or", "unless", "inf", "nan"}


def panels(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for item in items:
        found.append(item)
        found += panels(item.get("panels", []))
    return found


def metric_names(expr: str) -> set[str]:
    """The series a PromQL expression selects: identifiers that are not functions, keywords,
    label names or strings."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "", expr)
    text = re.sub(r"\{[^}]*\}", "", text)
    text = re.sub(r"\[[^\]]*\]", "", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    found = set()
    for match in re.finditer(r"[a-zA-Z_:][a-zA-Z0-9_:]*", text):
        rest = text[match.end() :].lstrip()
        if rest.startswith("(") or match.group() in KEYWORDS:
            continue
        found.add(match.group())
    return found


def test_metric_names_finds_series_not_functions_labels_or_ranges() -> None:
    expr = (
        'histogram_quantile(0.95, sum by (le, entrypoint) (rate(a_bucket{state=~"x|y"}'
        "[$__rate_interval]))) / on (owner) b_total - time()"
    )
    assert metric_names(expr) == {"a_bucket", "b_total"}


async def test_every_dashboard_series_is_exported_by_the_api_endpoint(db: Database) -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"]
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    exprs = {}
    for panel in panels(dashboard["panels"]):
        if panel.get("type") == "row":
            continue
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            assert target["datasource"]["uid"] == "${datasource}", panel["title"]
            exprs[f"{panel['title']}/{target['refId']}"] = target["expr"]
    wanted = {ref: metric_names(expr) for ref, expr in exprs.items()}
    assert all(wanted.values()), wanted

    async with served_metrics(db, run_worker=True) as url:
        exported = names(await scraped_when(url, "genji_queue_jobs"))

    missing = {ref: series - exported for ref, series in wanted.items() if series - exported}
    assert not missing, missing
