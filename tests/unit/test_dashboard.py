"""deploy/grafana/longhouse.json (issue 27, acceptance 1: "the dashboard JSON loads in a schema
check"): valid JSON that fits the shape Grafana imports (a JSON Schema of the fields Grafana needs,
checked with jsonschema), panels on its 24-column grid that do not overlap, each query on the
dashboard's Prometheus data source, and every PromQL query naming only families Longhouse exposes
(:data:`services.common.metrics.FAMILIES`) with every family on some panel."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest

from services.common.metrics import FAMILIES

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "longhouse.json"
DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}
"""Every panel and query reads the dashboard's data source variable (chosen at import)."""

_DS = {"type": "object", "required": ["type", "uid"], "properties": {"type": {"const": "prometheus"},
                                                                     "uid": {"type": "string"}}}
SCHEMA = {
    "type": "object",
    "required": ["title", "uid", "schemaVersion", "panels", "templating", "time"],
    "properties": {
        "title": {"type": "string", "minLength": 1},
        "uid": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,40}$"},
        "schemaVersion": {"type": "integer", "minimum": 30},
        "time": {"type": "object", "required": ["from", "to"]},
        "templating": {"type": "object", "required": ["list"], "properties": {"list": {"type": "array", "items": {
            "type": "object", "required": ["name", "type"]}}}},
        "panels": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["id", "type", "title", "gridPos", "datasource", "targets"],
            "properties": {
                "id": {"type": "integer", "minimum": 1},
                "type": {"enum": ["timeseries", "stat", "gauge", "bargauge", "table"]},
                "title": {"type": "string", "minLength": 1},
                "datasource": _DS,
                "gridPos": {"type": "object", "required": ["h", "w", "x", "y"], "properties": {
                    "h": {"type": "integer", "minimum": 1}, "w": {"type": "integer", "minimum": 1, "maximum": 24},
                    "x": {"type": "integer", "minimum": 0, "maximum": 23}, "y": {"type": "integer", "minimum": 0}}},
                "targets": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["refId", "expr", "datasource"],
                    "properties": {"refId": {"type": "string", "pattern": "^[A-Z]$"},
                                   "expr": {"type": "string", "minLength": 1}, "datasource": _DS}}},
            }}},
    },
}
"""What Grafana needs of a dashboard it imports (the fields this one uses)."""
METRIC = re.compile(r"\b(longhouse_[a-z_]+)")
SUFFIXES = ("_bucket", "_count", "_sum")


def dashboard() -> dict:
    return json.loads(DASHBOARD.read_text())


def check(doc: dict) -> None:
    """Raise if ``doc`` is not a dashboard this test accepts (the module docstring)."""
    jsonschema.validate(doc, SCHEMA)
    assert any(v["name"] == "datasource" and v["type"] == "datasource" for v in doc["templating"]["list"])
    ids = [p["id"] for p in doc["panels"]]
    assert len(ids) == len(set(ids)), "panel ids repeat"
    cells: set[tuple[int, int]] = set()
    for panel in doc["panels"]:
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24, panel["title"]
        mine = {(x, y) for x in range(grid["x"], grid["x"] + grid["w"]) for y in range(grid["y"], grid["y"] + grid["h"])}
        assert not cells & mine, f"{panel['title']} overlaps another panel"
        cells |= mine
        assert panel["datasource"] == DATASOURCE
        for target in panel["targets"]:
            assert target["datasource"] == DATASOURCE
            expr = target["expr"]
            assert expr.count("(") == expr.count(")") and expr.count("{") == expr.count("}"), expr
            names = METRIC.findall(expr)
            assert names, f"{panel['title']}: no Longhouse family in {expr}"
            for name in names:
                assert family_of(name) in FAMILIES, f"{panel['title']}: {name} is not a family Longhouse exposes"


def family_of(name: str) -> str:
    """The family of a series name (a histogram's ``_bucket``/``_count``/``_sum`` taken off)."""
    for suffix in SUFFIXES:
        if name.endswith(suffix) and name[: -len(suffix)] in FAMILIES:
            return name[: -len(suffix)]
    return name


def test_the_dashboard_loads_and_fits_the_schema():
    check(dashboard())


def test_every_family_is_on_a_panel():
    exprs = [t["expr"] for p in dashboard()["panels"] for t in p["targets"]]
    shown = {family_of(n) for e in exprs for n in METRIC.findall(e)}
    assert shown == set(FAMILIES)


@pytest.mark.parametrize("break_it", [
    lambda d: d["panels"][0]["targets"][0].update(expr="rate(longhouse_movez_total[5m])"),
    lambda d: d["panels"][1].update(gridPos={"h": 4, "w": 6, "x": 0, "y": 0}),
    lambda d: d["panels"][0].pop("targets"),
    lambda d: d.update(uid="not a uid!"),
    lambda d: d["panels"][2]["targets"][0].update(expr="sum(rate(longhouse_moves_total[5m])"),
])
def test_the_check_catches_a_broken_dashboard(break_it):
    doc = copy.deepcopy(dashboard())
    break_it(doc)
    with pytest.raises((AssertionError, jsonschema.ValidationError)):
        check(doc)
