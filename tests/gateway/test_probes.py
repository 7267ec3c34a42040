"""The gateway's probes (gateway/readiness.py, ``GET /healthz``): ``/livez`` touches no dependency;
``/readyz`` and ``/healthz`` say 503 within about a second when Redis does not answer, whether it
is gone or stopped (a socket that accepts connections but never replies, as a SIGSTOPped
redis-server does)."""

from __future__ import annotations

import socket
import time
from typing import Iterator

import pytest

from gateway import readiness
from gateway.limits import category
from services.common.config import Settings
from tests.gateway.conftest import make_app
from tests.support.ports import free_port

ANSWER_WITHIN_S = 1.5
"""How long a probe may take while Redis does not answer (the readiness budget is about 1 s)."""


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """A Redis URL on 127.0.0.1 whose server accepts connections (the kernel's backlog) and never
    answers: what a stopped redis-server looks like to a client."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    try:
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    finally:
        listener.close()


def timed(client, path: str):
    """``(answer, seconds)`` of ``GET path``."""
    started = time.monotonic()
    answer = client.get(path)
    return answer, time.monotonic() - started


def test_livez_answers_whatever_redis_does(silent_redis):
    for url in (silent_redis, f"redis://127.0.0.1:{free_port()}/0"):
        client = make_app(url).test_client()
        answer, took = timed(client, "/livez")
        assert answer.status_code == 200 and answer.get_json() == {"status": "alive"}
        assert took < 0.5


def test_readyz_and_healthz_fail_fast_on_a_stopped_redis(silent_redis):
    client = make_app(silent_redis).test_client()
    answer, took = timed(client, "/readyz")
    assert answer.status_code == 503, answer.get_json()
    assert took < ANSWER_WITHIN_S
    checks = answer.get_json()["checks"]
    assert checks["redis"].startswith("TimeoutError")
    assert checks["movers"] == "not checked: redis does not answer"
    answer, took = timed(client, "/healthz")
    assert answer.status_code == 503 and answer.get_json()["error"] == "unavailable"
    assert took < ANSWER_WITHIN_S


def test_readyz_with_grpc_ports_and_celery_answers_within_the_budget(silent_redis):
    # nothing listens on the services' ports and the broker is the silent Redis too
    nowhere = Settings(host="127.0.0.1", **{f"{name}_port": free_port()
                                            for name in ("decks", "market", "boards", "scoring")})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readiness, "settings", lambda: nowhere)
        client = make_app(silent_redis, PORTS_MODE="grpc", PHASE_MODE="celery",
                          CELERY_BROKER_URL=silent_redis).test_client()
        answer, took = timed(client, "/readyz")
    assert answer.status_code == 503
    assert took < ANSWER_WITHIN_S
    checks = answer.get_json()["checks"]
    assert set(checks) == {"redis", "decks", "market", "boards", "scoring", "movers", "worker"}
    assert checks["worker"] == "not checked: redis does not answer"
    assert all(checks[name] != "ok" for name in ("decks", "market", "boards", "scoring"))


def test_probes_are_never_rate_limited():
    assert category("readiness.livez", "GET") is None
    assert category("readiness.readyz", "GET") is None
    assert category("healthz", "GET") is None


def test_the_gateway_scope_leaves_out_the_movers_and_the_worker(redis_client, redis_server):
    """Kubernetes' readiness of the gateway pods (``?scope=gateway``): Redis and the services only,
    so a stack without a mover is unready as a stack but its gateway serves reads and moves."""
    client = make_app(redis_server.url).test_client()  # a flushed store: no mover heartbeat in it
    whole = client.get("/readyz")
    assert whole.status_code == 503 and whole.get_json()["checks"]["movers"] != "ok"
    gateway = client.get("/readyz?scope=gateway")
    assert gateway.status_code == 200, gateway.get_json()
    assert gateway.get_json()["checks"] == {"redis": "ok"}
    bad = client.get("/readyz?scope=everything")
    assert bad.status_code == 400 and bad.get_json()["error"] == "bad_request"


STORE_TIMEOUT_S = 1.0
"""The store's command timeout the next test gives the gateway (``REDIS_TIMEOUT_SECONDS``)."""


def test_reads_and_moves_are_a_503_within_the_store_timeout_on_a_stopped_redis(silent_redis):
    """A Redis that stops answering makes a read and a move a 503 ``unavailable`` once the store's
    command timeout (``REDIS_TIMEOUT_SECONDS``) passes, once, not after the long polls' read timeout
    (``WAIT_MAX_SECONDS`` and 10 s: a trial's reads took 40 s and its move 50 s)."""
    client = make_app(silent_redis, REDIS_TIMEOUT_SECONDS=STORE_TIMEOUT_S, WAIT_MAX_SECONDS=30).test_client()
    for method, path, body in (("get", "/games/0123456789abcdef", None),
                               ("get", "/games/0123456789abcdef/view", None),
                               ("post", "/games/0123456789abcdef/moves", {"move": {"type": "pass"}, "expected_version": 1})):
        started = time.monotonic()
        answer = getattr(client, method)(path, json=body, headers={"Authorization": "Bearer 0123456789abcdef.x"})
        took = time.monotonic() - started
        assert answer.status_code == 503 and answer.get_json()["error"] == "unavailable", (path, answer.get_json())
        # one store timeout, not two (a move's deferred rate-limit counters are not settled on the
        # store that just failed) and far from the 40 s of the long polls' timeout
        assert took < 1.8 * STORE_TIMEOUT_S, (path, took)


def test_the_sse_feeds_and_waits_read_on_the_blocking_client(app):
    """The feeds' ``XREAD BLOCK`` (``SSE_KEEPALIVE_SECONDS``) and ``/wait``'s run on the client whose
    read timeout outlasts them; the store's own client waits ``REDIS_TIMEOUT_SECONDS`` only."""
    from gateway.clients import clients

    with app.app_context():
        shared = clients()
        longest = max(app.config["WAIT_MAX_SECONDS"], app.config["SSE_KEEPALIVE_SECONDS"])
        assert shared.feeds().client is shared.blocking_redis()
        assert shared.blocking_redis().connection_pool.connection_kwargs["socket_timeout"] > longest
        assert shared.redis().connection_pool.connection_kwargs["socket_timeout"] < longest
