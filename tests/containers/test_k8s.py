"""deploy/k8s against the Kubernetes JSON schemas (offline, kubernetes-validate's bundled schemas,
strict: no unknown field), and what the issue asks of them: Deployments, Services, native gRPC
readiness probes for the services, liveness probes that never touch Redis (issue 27, "Probes"),
HorizontalPodAutoscalers for the gateway, services and workers, resource requests, non-root
security contexts, Redis as a StatefulSet."""

from __future__ import annotations

import copy
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from services.coordinator.grpc_server import LIVENESS_SERVICE

from .conftest import ROOT

K8S_VERSION = "1.33.0"
"""The Kubernetes release whose schemas the manifests must pass (native gRPC probes are GA since 1.27)."""
SERVICES = {"decks": 29151, "market": 29152, "boards": 29153, "scoring": 29154}


def manifests() -> list[dict]:
    """Every object of deploy/k8s/*.yaml."""
    docs = []
    for path in sorted((ROOT / "deploy" / "k8s").glob("*.yaml")):
        docs += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    return docs


def by_kind(kind: str) -> dict[str, dict]:
    """name -> object, of one kind."""
    return {doc["metadata"]["name"]: doc for doc in manifests() if doc["kind"] == kind}


@pytest.mark.containers
def test_every_manifest_passes_the_schemas():
    docs = manifests()
    assert len(docs) >= 20
    for doc in docs:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


@pytest.mark.containers
def test_the_schema_check_catches_a_mistake():
    deployment = copy.deepcopy(by_kind("Deployment")["decks"])
    deployment["spec"]["template"]["spec"]["containers"][0]["readinessProbe"] = {"grpcc": {"port": 29151}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSION, strict=True)
    deployment["spec"]["replicas"] = "one"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSION, strict=False)


@pytest.mark.containers
def test_deployments_probes_autoscalers_and_security():
    deployments, services, hpas = by_kind("Deployment"), by_kind("Service"), by_kind("HorizontalPodAutoscaler")
    assert set(deployments) == {*SERVICES, "worker", "mover", "gateway"}
    assert set(hpas) == set(deployments)
    for name, hpa in hpas.items():
        assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}
    for name, port in SERVICES.items():
        container = deployments[name]["spec"]["template"]["spec"]["containers"][0]
        assert container["readinessProbe"]["grpc"] == {"port": port}
        assert container["livenessProbe"]["grpc"] == {"port": port, "service": LIVENESS_SERVICE}
        assert container["args"] == [name]
        assert services[name]["spec"]["ports"][0]["port"] == port
    gateway = deployments["gateway"]["spec"]["template"]["spec"]["containers"][0]
    assert gateway["readinessProbe"]["httpGet"]["path"] == "/readyz?scope=gateway"  # not the worker nor the movers
    assert gateway["livenessProbe"]["httpGet"]["path"] == "/livez"
    for name, deployment in {**deployments, **by_kind("StatefulSet")}.items():
        pod = deployment["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] > 0, name
        for container in pod["containers"]:
            assert container["resources"]["requests"]["cpu"] and container["resources"]["requests"]["memory"], name
            assert container["securityContext"]["allowPrivilegeEscalation"] is False, name
            assert "readinessProbe" in container, name
    redis = by_kind("StatefulSet")["redis"]
    assert "--appendonly" in redis["spec"]["template"]["spec"]["containers"][0]["args"]
    assert redis["spec"]["volumeClaimTemplates"]


@pytest.mark.containers
def test_no_liveness_probe_goes_through_redis():
    """A liveness probe that needs Redis restarts every pod in a Redis outage: only the gateway's
    ``/livez``, the services' health service ``liveness`` and Redis's own port may be liveness."""
    seen = []
    for name, workload in {**by_kind("Deployment"), **by_kind("StatefulSet")}.items():
        for container in workload["spec"]["template"]["spec"]["containers"]:
            probe = container.get("livenessProbe")
            if probe is None:
                continue
            seen.append(name)
            assert "exec" not in probe, f"{name}: an exec liveness probe (the health check goes through Redis)"
            if "httpGet" in probe:
                assert probe["httpGet"]["path"] == "/livez", name
            elif "grpc" in probe:
                assert probe["grpc"].get("service") == LIVENESS_SERVICE, name
            else:
                assert name == "redis" and "tcpSocket" in probe, name
    assert sorted(seen) == sorted([*SERVICES, "gateway", "redis"])


@pytest.mark.containers
def test_settings_name_every_peer_by_its_service():
    config = by_kind("ConfigMap")["longhouse-config"]["data"]
    assert config["LONGHOUSE_BIND_HOST"] == "0.0.0.0"
    assert config["LONGHOUSE_REDIS_HOST"] in by_kind("Service")
    for name, port in SERVICES.items():
        assert config[f"LONGHOUSE_{name.upper()}_HOST"] == name
        assert config[f"LONGHOUSE_{name.upper()}_PORT"] == str(port)
    from services.common.config import Settings

    settings = Settings(**{key[len("LONGHOUSE_"):].lower(): value for key, value in config.items()
                           if key.startswith("LONGHOUSE_")})
    assert settings.service_address("deck") == "decks:29151"
    assert settings.redis_url == "redis://redis:6479/0"


@pytest.mark.containers
def test_every_deployment_reads_the_secret_keys_from_one_secret_the_manifests_do_not_hold():
    """Secrets at rest: every Deployment (each touches Redis) takes ``LONGHOUSE_SECRET_KEYS`` from
    the Secret ``longhouse-secret-keys``, not optional (a pod without it waits rather than start
    on the development key), and no manifest holds that Secret, so applying them again can never
    replace the key that opens what is stored."""
    deployments = by_kind("Deployment")
    assert set(deployments) == {*SERVICES, "worker", "mover", "gateway"}
    for name, deployment in deployments.items():
        [container] = deployment["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e for e in container.get("env", [])}
        assert "LONGHOUSE_SECRET_KEYS" in env, name
        ref = env["LONGHOUSE_SECRET_KEYS"]["valueFrom"]["secretKeyRef"]
        assert ref == {"name": "longhouse-secret-keys", "key": "LONGHOUSE_SECRET_KEYS"}, name
    assert "longhouse-secret-keys" not in by_kind("Secret")
    assert not any("LONGHOUSE_SECRET_KEYS" in doc.get("data", {}) for doc in by_kind("ConfigMap").values())
