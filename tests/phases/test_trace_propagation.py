"""Trace context and request ids beyond the gateway's gRPC calls (issue 27, traces): into the
Celery tasks a request queues, to the mover that plays a game queued on the ready list, and to
the agents the worker asks (the webhook's headers, the gRPC call's metadata).

Tracing is on in this process with the SDK's in-memory exporter; the Celery worker is Celery's
own test worker on an in-memory broker, the agents are small servers on loopback that record
what they were sent.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler

import grpc
import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from opentelemetry.trace import SpanKind

from services.agents.client import GrpcAgentClient, HttpAgentClient
from services.agents.protocol import MatchStart, MoveRequest
from services.common import logs, tracing
from services.phases import schedulers
from services.phases import worker  # noqa: F401  (connects the worker's request-id signal handlers)
from services.phases.mover import Mover
from tests.support.agents import SECRET, agent_method_server, http_handler_server
from tests.support.tracing import finished_spans, hex_ids, in_memory_tracing

TIMEOUT_S = 5.0


@pytest.fixture
def exporter():
    """Tracing on in this process, into an in-memory exporter; off again after the test."""
    yield from in_memory_tracing()


def _start() -> MatchStart:
    return MatchStart(match_id="match-1", game="gnomes", seat=1, players=2, options_json="{}",
                      time_control={"move_ms": 2000, "bank_ms": 10000, "max_strikes": 3})


def _move() -> MoveRequest:
    return MoveRequest(match_id="match-1", game="gnomes", seat=1, version=3, view_json="{}",
                       legal_moves_json=['{"op":"a"}', '{"op":"b"}'], time_left_ms=2000, bank_ms=0)


def _span_named(spans, name):
    found = [s for s in spans if s.name == name]
    assert len(found) == 1, [s.name for s in spans]
    return found[0]


def test_a_celery_task_continues_the_trace_and_the_request_id_that_sent_it(exporter):
    app = Celery("trace-test", broker="memory://")
    app.conf.update(task_serializer="json", accept_content=["json"], task_ignore_result=True)
    seen: dict[str, object] = {}
    ran = threading.Event()

    @app.task(name="longhouse.test_traced")
    def traced(n: int) -> None:
        seen["request_id"] = logs.request_id.get()
        seen["ids"] = tracing.current_ids()
        seen["n"] = n
        ran.set()

    tracing.instrument_celery_worker()
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        exporter.clear()
        token = logs.request_id.set("req-celery-1")
        try:
            with tracing.span("request") as request_span:
                schedulers.send_task(app, "longhouse.test_traced", (3,), "celery")
        finally:
            logs.request_id.reset(token)
        assert ran.wait(TIMEOUT_S), "the task never ran"
        spans = finished_spans(exporter, lambda s: any(x.name == "run longhouse.test_traced" for x in s))
    assert seen["n"] == 3 and seen["request_id"] == "req-celery-1"
    sent = _span_named(spans, "send longhouse.test_traced")
    run = _span_named(spans, "run longhouse.test_traced")
    trace_id = request_span.get_span_context().trace_id
    assert sent.kind == SpanKind.PRODUCER and sent.parent.span_id == request_span.get_span_context().span_id
    assert run.kind == SpanKind.CONSUMER and run.context.trace_id == trace_id
    assert run.parent.span_id == sent.context.span_id and run.parent.is_remote
    assert seen["ids"] == (format(trace_id, "032x"), format(run.context.span_id, "016x"))  # the task's log lines


def test_a_mover_round_links_to_the_trace_that_queued_its_game(exporter, redis_client):
    bus = schedulers.BusScheduler(redis_client, phases=None)
    with tracing.span("request") as request_span:
        bus.schedule_bot("g-traced", 1, 4)
    bus.schedule_bot("g-untraced", 1, 4)  # outside any span: nothing to link to
    assert redis_client.lrange(schedulers.READY, 0, -1) == [b"g-untraced", b"g-traced"]
    links = Mover(None, redis_client)._links(["g-traced", "g-untraced", "g-unknown"])
    want = request_span.get_span_context()
    assert links is not None and [(link.context.trace_id, link.context.span_id) for link in links] == [
        (want.trace_id, want.span_id)]


def test_an_http_agent_call_carries_the_trace_context(exporter):
    got: dict[str, str] = {}

    class Agent(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            got.update({k.lower(): v for k, v in self.headers.items()})
            body = json.dumps({}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with http_handler_server(Agent) as port:
        exporter.clear()
        with tracing.span("decide") as decide:
            with HttpAgentClient(f"http://127.0.0.1:{port}/", SECRET) as client:
                client.start(_start(), TIMEOUT_S)
    call = _span_named(exporter.get_finished_spans(), "agent StartMatch")
    assert call.kind == SpanKind.CLIENT and call.parent.span_id == decide.get_span_context().span_id
    assert hex_ids(got["traceparent"]) == (format(call.context.trace_id, "032x"), format(call.context.span_id, "016x"))
    assert "webhook-signature" in got  # the signature headers are still there beside it


def test_a_grpc_agent_call_carries_the_trace_context(exporter):
    got: dict[str, str] = {}

    def start_match(request: bytes, context) -> bytes:
        got.update(dict(context.invocation_metadata()))
        return b""

    with agent_method_server("StartMatch", start_match) as port:
        exporter.clear()
        with tracing.span("decide") as decide:
            with GrpcAgentClient(f"127.0.0.1:{port}", SECRET) as client:
                client.start(_start(), TIMEOUT_S)
    call = _span_named(exporter.get_finished_spans(), "agent StartMatch")
    assert call.kind == SpanKind.CLIENT and call.parent.span_id == decide.get_span_context().span_id
    assert hex_ids(got["traceparent"]) == (format(call.context.trace_id, "032x"), format(call.context.span_id, "016x"))
    assert "webhook-signature" in got


def test_a_grpc_agent_call_without_a_thread_carries_the_trace_context_and_ends_with_the_call(exporter):
    """services/agents/client.py choose_async: its CLIENT span is a child of the caller's, its
    context goes out in the call's metadata, and it ends when the answer is read (in gRPC's
    thread), with the failure's kind on it."""
    got: dict[str, str] = {}
    answer = threading.Event()

    def choose_move(request: bytes, context) -> bytes:
        got.update(dict(context.invocation_metadata()))
        assert answer.wait(TIMEOUT_S)  # the span must not end before this answers
        return b"garbage that is not a MoveChoice"

    outcome: list = []
    done = threading.Event()
    with agent_method_server("ChooseMove", choose_move) as port:
        try:
            exporter.clear()
            with GrpcAgentClient(f"127.0.0.1:{port}", SECRET) as client:
                with tracing.span("round") as parent:
                    client.choose_async(_move(), TIMEOUT_S, lambda o: (outcome.append(o), done.set()))
                assert [s.name for s in exporter.get_finished_spans()] == ["round"]  # the call's is still open
                answer.set()
                assert done.wait(TIMEOUT_S)
        finally:
            answer.set()  # the server's thread is never left waiting
    call = _span_named(exporter.get_finished_spans(), "agent ChooseMove")
    assert call.kind == SpanKind.CLIENT and call.parent.span_id == parent.get_span_context().span_id
    assert hex_ids(got["traceparent"]) == (format(call.context.trace_id, "032x"), format(call.context.span_id, "016x"))
    assert call.attributes["longhouse.agent_failure"] == "malformed" == outcome[0].kind
    assert "webhook-signature" in got


def test_a_webhook_call_from_the_agent_loop_carries_the_trace_context_and_ends_with_the_call(exporter):
    """services/agents/client.py HttpAgentClient.choose_async: its CLIENT span is a child of the
    caller's, its context goes out as the POST's ``traceparent`` beside the signature headers,
    and it ends when the answer is read (on the agent loop), with the failure's kind on it."""
    got: dict[str, str] = {}
    answer = threading.Event()

    class Agent(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            got.update({k.lower(): v for k, v in self.headers.items()})
            assert answer.wait(TIMEOUT_S)  # the span must not end before this answers
            body = b"garbage that is not JSON"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    outcome: list = []
    done = threading.Event()
    # the server's thread is never left waiting: the block's end sets answer
    with http_handler_server(Agent, release=answer) as port:
        exporter.clear()
        with HttpAgentClient(f"http://127.0.0.1:{port}/", SECRET) as client:
            with tracing.span("round") as parent:
                client.choose_async(_move(), TIMEOUT_S, lambda o: (outcome.append(o), done.set()))
            assert [s.name for s in exporter.get_finished_spans()] == ["round"]  # the call's is still open
            answer.set()
            assert done.wait(TIMEOUT_S)
    call = _span_named(exporter.get_finished_spans(), "agent ChooseMove")
    assert call.kind == SpanKind.CLIENT and call.parent.span_id == parent.get_span_context().span_id
    assert hex_ids(got["traceparent"]) == (format(call.context.trace_id, "032x"), format(call.context.span_id, "016x"))
    assert call.attributes["longhouse.agent_failure"] == "malformed" == outcome[0].kind
    assert "webhook-signature" in got


def test_with_tracing_off_nothing_is_added(redis_client):
    assert not tracing.enabled()
    with tracing.span("request"):
        assert tracing.carrier() == {} and tracing.celery_headers() is None
        assert schedulers.task_headers() == {}
        schedulers.BusScheduler(redis_client, phases=None).schedule_bot("g-off", 0, 1)
    assert redis_client.keys("game:*ready_trace") == []
    assert Mover(None, redis_client)._links(["g-off"]) is None
    channel = grpc.insecure_channel("127.0.0.1:1")
    assert tracing.intercept_channel(channel) is channel and tracing.server_interceptors() == []
    channel.close()


def test_idle_calls_out_make_no_trace_of_their_own(exporter, redis_client):
    exporter.clear()
    redis_client.ping()  # a Redis command with no request, task or round behind it: dropped
    with tracing.span("mover round"):
        redis_client.ping()  # inside a round: kept, as the round's child
    spans = exporter.get_finished_spans()
    assert [(s.name, s.kind) for s in spans] == [("PING", SpanKind.CLIENT), ("mover round", SpanKind.INTERNAL)]
    assert spans[0].parent.span_id == spans[1].context.span_id
