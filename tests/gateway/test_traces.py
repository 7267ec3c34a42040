"""Traces (issue 27, acceptance 3): one move through the gateway and the domain services is one trace.

The gateway app and the four domain gRPC servers run in this process, each built as its process
builds it (``create_app``; :func:`services.coordinator.grpc_server.build_server`, the servers'
own interceptors) on free loopback ports, with tracing on and the SDK's in-memory exporter. The
calls go over real gRPC: a server runs its handlers on its own thread pool, which inherits no
context from the caller, so a server span can only find its parent through the call's metadata.
"""

from __future__ import annotations

import pytest
from opentelemetry.trace import SpanKind

from services.boards.server import SPEC as BOARDS
from services.common import logs, tracing
from services.common.config import Settings
from services.coordinator.grpc_server import build_server
from services.decks.server import SPEC as DECKS
from services.market.server import SPEC as MARKET
from services.scoring.server import SPEC as SCORING
from tests.gateway.conftest import Api, make_app
from tests.support.ports import free_port
from tests.support.tracing import finished_spans, in_memory_tracing


@pytest.fixture(scope="module")
def exporter():
    """Tracing on in this process, into an in-memory exporter; off again after the module."""
    yield from in_memory_tracing()


@pytest.fixture(scope="module")
def services(exporter, redis_server):
    """The four domain services on free ports (built after tracing is on), and their settings."""
    cfg = Settings(host="127.0.0.1", store_url=redis_server.url, decks_port=free_port(),
                   market_port=free_port(), boards_port=free_port(), scoring_port=free_port())
    servers = []
    for spec in (DECKS, MARKET, BOARDS, SCORING):
        server, _health, _address = build_server(spec, cfg, max_workers=4)
        server.start()
        servers.append(server)
    yield cfg
    for server in servers:
        server.stop(0).wait(5)


@pytest.fixture
def traced_api(services, redis_client, redis_server, monkeypatch):
    """:class:`Api` over a gateway whose Table calls the domain services over gRPC."""
    monkeypatch.setattr("services.phases.hosting.default_settings", lambda: services)
    app = make_app(redis_server.url, PORTS_MODE="grpc")
    return Api(app.test_client())


def test_a_move_is_one_trace_across_the_gateway_and_the_domain_service(exporter, traced_api):
    gid = traced_api.create("step_race", 2)
    token = traced_api.seat(gid, 0)
    version = traced_api.version(gid)
    exporter.clear()
    resp = traced_api.move(gid, token, {"type": "advance", "steps": 2}, version=version)
    assert resp.status_code == 200, resp.json
    rid = resp.headers["X-Request-ID"]

    def complete(spans):
        return any(s.kind == SpanKind.SERVER and s.name.startswith("/longhouse.") for s in spans)

    spans = finished_spans(exporter, complete)
    http = [s for s in spans if s.kind == SpanKind.SERVER and s.attributes.get("longhouse.request_id") == rid]
    assert len(http) == 1, [(s.name, s.kind, dict(s.attributes)) for s in spans]
    root = http[0]
    assert root.parent is None and "/games/<game_id>/moves" in root.name, root.name
    trace_id = root.context.trace_id
    mine = [s for s in spans if s.context.trace_id == trace_id]
    by_id = {s.context.span_id: s for s in mine}
    clients = [s for s in mine if s.kind == SpanKind.CLIENT and s.name.startswith("/longhouse.")]
    servers = [s for s in mine if s.kind == SpanKind.SERVER and s.name.startswith("/longhouse.")]
    assert clients and servers, [(s.name, s.kind) for s in mine]
    for server in servers:  # each domain call's server span is the child of the gateway's call span
        parent = by_id[server.parent.span_id]
        assert parent.kind == SpanKind.CLIENT and parent.name == server.name, (parent.name, server.name)
        assert server.attributes.get("rpc.method") in ("Apply", "ApplyBatch"), dict(server.attributes)
    for span in clients:  # and every call span descends from the request's span
        seen = span
        for _ in range(20):
            if seen.parent is None:
                break
            seen = by_id[seen.parent.span_id]
        assert seen is root, span.name
    # the domain service's spans are in no other trace: the whole move is this one
    assert all(s.context.trace_id == trace_id for s in spans if s.name.startswith("/longhouse.")), \
        [(s.name, format(s.context.trace_id, "032x")) for s in spans]


def test_the_gateway_continues_a_clients_trace(exporter, traced_api):
    gid = traced_api.create("step_race", 2)
    exporter.clear()
    trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
    parent = "00f067aa0ba902b7"
    resp = traced_api.c.get(f"/games/{gid}", headers={"traceparent": f"00-{trace_id}-{parent}-01"})
    assert resp.status_code == 200
    spans = finished_spans(exporter, lambda s: any(x.kind == SpanKind.SERVER for x in s))
    root = next(s for s in spans if s.kind == SpanKind.SERVER)
    assert format(root.context.trace_id, "032x") == trace_id
    assert root.parent is not None and format(root.parent.span_id, "016x") == parent and root.parent.is_remote


def test_with_nothing_configured_tracing_stays_off(monkeypatch):
    for name in tracing.ENDPOINT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert not tracing.wanted()
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
    assert tracing.wanted()
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert not tracing.wanted()



def test_a_domain_call_carries_the_request_id_to_the_services_log_lines():
    """The port sends the request id being served; the server's logging interceptor binds it
    while the call runs (every line then carries it: tests/gateway/test_request_ids.py)."""
    import grpc
    from concurrent import futures

    from services.coordinator.grpc_ports import GrpcPort
    from services.coordinator.grpc_server import LoggingInterceptor

    seen = []

    def apply(request: bytes, context) -> bytes:
        seen.append(logs.request_id.get())
        return b""

    handler = grpc.method_handlers_generic_handler(
        "longhouse.v1.BoardService", {"Apply": grpc.unary_unary_rpc_method_handler(apply)})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2), interceptors=[LoggingInterceptor()])
    server.add_generic_rpc_handlers((handler,))
    port_number = server.add_insecure_port("127.0.0.1:0")
    server.start()
    port = GrpcPort("board", f"127.0.0.1:{port_number}", timeout=5.0)
    try:
        token = logs.request_id.set("rid-grpc-1")
        try:
            port.apply("g1", 0, [], [])
        finally:
            logs.request_id.reset(token)
        port.apply("g2", 0, [], [])  # outside a request: nothing is sent, nothing bound
    finally:
        port.close()
        server.stop(0).wait(5)
    assert seen == ["rid-grpc-1", None]
