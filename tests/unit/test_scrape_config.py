"""Where Prometheus finds the metrics (README, Metrics): deploy/prometheus.yml scrapes every compose
service at its default metrics port, the compose file mounts it in the ``metrics`` profile only,
and every Kubernetes Deployment's pods carry ``prometheus.io/*`` annotations naming a port the
container declares (or the gateway's own)."""

from __future__ import annotations

from pathlib import Path

import yaml

from services.common.config import Settings

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ("decks", "market", "boards", "scoring", "worker", "mover")


def test_prometheus_scrapes_every_compose_service_at_its_metrics_port():
    config = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    targets = {name: sd["port"] for job in config["scrape_configs"] for sd in job["dns_sd_configs"]
               for name in sd["names"]}
    defaults = Settings(_env_file=None)
    assert targets == {"gateway": defaults.gateway_port, **{p: defaults.metrics_port(p) for p in PROCESSES}}
    assert all(job["metrics_path"] == "/metrics" for job in config["scrape_configs"])
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert set(targets) <= set(compose)
    prometheus = compose["prometheus"]
    assert prometheus["profiles"] == ["metrics"]  # not started by a plain `docker-compose up`
    assert any(v.startswith("./deploy/prometheus.yml:") for v in prometheus["volumes"])


def test_every_deployment_is_annotated_for_scraping():
    docs = [d for path in sorted((ROOT / "deploy" / "k8s").glob("*.yaml")) for d in yaml.safe_load_all(path.read_text()) if d]
    deployments = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Deployment"}
    assert set(deployments) == {*PROCESSES, "gateway"}
    defaults = Settings(_env_file=None)
    for name, deployment in deployments.items():
        template = deployment["spec"]["template"]
        notes = template["metadata"]["annotations"]
        want = defaults.gateway_port if name == "gateway" else defaults.metrics_port(name)
        assert notes == {"prometheus.io/scrape": "true", "prometheus.io/port": str(want), "prometheus.io/path": "/metrics"}
        declared = {p["containerPort"] for p in template["spec"]["containers"][0].get("ports", [])}
        assert want in declared, name
