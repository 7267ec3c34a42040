"""Several decisions for one agent asked in one call: gRPC ``ChooseMoves`` (``protos/agent.proto``)
and a webhook's POST of ``"type": "moves"`` (services/agents/protocol.py ``MoveRequests``), by
``choose_many_async`` (services/agents/client.py).

Against the example agents (which serve both) and against in-process agents that serve only one
decision a call or answer a batch badly: each decision gets exactly one outcome, the one asking it
alone would give; an agent that does not serve batches is asked one call a decision from then on.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler

import grpc
import pytest

from services.agents.client import AgentClient, AgentFailure, GrpcAgentClient, HttpAgentClient, batches
from services.agents.protocol import MoveChoice, MoveRequest, ReplayGuard, verify
from services.api import agent_pb2
from tests.agents.conftest import SECRET
from tests.support.agents import agent_method_server, http_handler_server
from tests.support.ports import free_port
from tests.support.wait import wait_for

PROTOCOLS = ("grpc", "http")
TIMEOUT_S = 5.0
NO_INDEX = None
"""In a reply spec: a choice without an index."""


def request(version: int, n: int = 6, match: str = "match-1") -> MoveRequest:
    return MoveRequest(match_id=match, game="gnomes", seat=1, version=version,
                       view_json='{"phase":"dig","to_move":[1]}',
                       legal_moves_json=[f'{{"op":"dig","at":{i}}}' for i in range(n)],
                       time_left_ms=12000, bank_ms=10000)


def outcomes_of(client: AgentClient, requests: list[MoveRequest], timeouts: list[float] | None = None,
                wait_s: float = TIMEOUT_S + 10) -> list:
    """What ``client.choose_many_async`` hands each request's callback, in the requests' order;
    each callback is called exactly once (the wait is bounded)."""
    got: list[list] = [[] for _ in requests]
    all_in = threading.Event()
    lock = threading.Lock()

    def answering(i: int):
        def answered(outcome) -> None:
            with lock:
                got[i].append(outcome)
                if all(got):
                    all_in.set()
        return answered

    timeouts = timeouts or [TIMEOUT_S] * len(requests)
    client.choose_many_async([(r, t, answering(i)) for i, (r, t) in enumerate(zip(requests, timeouts))])
    assert all_in.wait(wait_s), "a callback was never called"
    assert [len(g) for g in got] == [1] * len(requests)
    return [g[0] for g in got]


class Counting:
    """An in-process agent: one decision a call is answered index = version % legal moves; a batch
    with ``batch(requests)`` (each request as ``(match_id, version, legal moves, view, time left)``),
    which gives the reply: a list of choices (an index, :data:`NO_INDEX` for a choice without one,
    or a string: the agent failed on that request, this is why), ``bytes`` sent as they are, an
    ``int`` status (gRPC: 404 UNIMPLEMENTED, 500 INTERNAL; HTTP: that status), or None (default)
    for "not served" (gRPC UNIMPLEMENTED, HTTP 400 as an agent of an older kind answers an unknown
    type). Counts the calls of each kind and checks every call's signature over its bytes as
    received."""

    def __init__(self, batch=lambda requests: None) -> None:
        self.calls = {"one": 0, "many": 0}
        self.batch = batch
        self.guard = ReplayGuard()
        self.seen: list[list[tuple]] = []
        self.told_left: list[int] = []

    def checked(self, headers, raw: bytes) -> None:
        verify(SECRET, headers, raw, time.time(), self.guard)

    def one(self, match_id: str, version: int, n: int, time_left_ms: int = 0) -> int:
        self.calls["one"] += 1
        self.told_left.append(time_left_ms)
        return version % n

    def many(self, requests: list[tuple]) -> list | bytes | None:
        self.calls["many"] += 1
        self.seen.append(requests)
        return self.batch(requests)


def grpc_served(agent: Counting, only_one: bool, port: int = 0):
    def one(raw: bytes, context) -> bytes:
        agent.checked(context.invocation_metadata(), raw)
        req = agent_pb2.MoveRequest.FromString(raw)
        return agent_pb2.MoveChoice(index=agent.one(req.match_id, req.version, len(req.legal_moves_json),
                                                    req.time_left_ms)).SerializeToString()

    def many(raw: bytes, context) -> bytes:
        agent.checked(context.invocation_metadata(), raw)
        got = agent_pb2.MoveRequests.FromString(raw)
        reply = agent.many([(r.match_id, r.version, list(r.legal_moves_json), r.view_json, r.time_left_ms)
                            for r in got.requests])
        if reply is None or reply == 404:
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "Method not found!")
        if reply == 500:
            context.abort(grpc.StatusCode.INTERNAL, "it broke")
        if isinstance(reply, bytes):
            return reply
        return agent_pb2.MoveChoices(choices=[agent_pb2.MoveChoice() if i is NO_INDEX
                                              else agent_pb2.MoveChoice(error=i) if isinstance(i, str)
                                              else agent_pb2.MoveChoice(index=i) for i in reply]).SerializeToString()

    return agent_method_server("ChooseMove", one, port, also=None if only_one else {"ChooseMoves": many})


def http_served(agent: Counting, only_one: bool, port: int = 0):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            agent.checked(self.headers, raw)
            body = json.loads(raw)
            if body["type"] == "move":
                status, reply = 200, {"index": agent.one(body["match_id"], body["version"],
                                                         len(body["legal_moves_json"]), body["time_left_ms"])}
            elif only_one:  # a lax agent of one decision a call: answers any POST as a move
                status, reply = 200, {"index": 0}
            else:
                got = agent.many([(r["match_id"], r["version"], r["legal_moves_json"], r["view_json"],
                                   r["time_left_ms"]) for r in body["requests"]])
                status, reply = ((400, {"error": "unknown type"}) if got is None
                                 else (got, {"error": "no"}) if isinstance(got, int) else (200, got))
            if isinstance(reply, list):
                reply = {"choices": [{} if i is NO_INDEX else {"error": i} if isinstance(i, str) else {"index": i}
                                     for i in reply]}
            data = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return http_handler_server(Handler, port=port, threaded=True)


class served:
    """``with served(protocol, agent, only_one) as client``: ``agent`` served in this process over
    ``protocol`` (with ``only_one``, an agent of one decision a call: a gRPC server without
    ``ChooseMoves``, or a webhook that answers every POST as a ``move``), and the engine's client of it."""

    def __init__(self, protocol: str, agent: Counting, only_one: bool = False, port: int = 0,
                 client: AgentClient | None = None) -> None:
        self.server = (grpc_served if protocol == "grpc" else http_served)(agent, only_one, port)
        self.protocol = protocol
        self.client = client

    def __enter__(self) -> AgentClient:
        port = self.server.__enter__()
        if self.client is None:
            self.client = client_at(self.protocol, port)
        return self.client

    def __exit__(self, *exc) -> None:
        try:
            self.client.close()
        finally:
            self.server.__exit__(*exc)


def client_at(protocol: str, port: int) -> AgentClient:
    return (GrpcAgentClient(f"127.0.0.1:{port}", SECRET) if protocol == "grpc"
            else HttpAgentClient(f"http://127.0.0.1:{port}/agent", SECRET))


# -- the example agents ----------------------------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_decisions_for_the_example_agent_go_in_one_call_and_get_what_asking_alone_gets(agents, client_for, protocol):
    """The example agents serve batches: three decisions, one call (the agent's log: a line a
    decision, marked as in the batch), each answered as asking it alone answers it."""
    agent = agents(protocol, "good")
    client = client_for(agent)
    requests = [request(v, match=f"batch-{protocol}-{v}") for v in range(3)]
    outcomes = outcomes_of(client, requests)
    assert client._batches is True
    assert outcomes == [client.choose(r, TIMEOUT_S) for r in requests]
    log = agent.log_text()
    for r in requests:
        assert log.count(f"match={r.match_id} ") == 2  # once in the batch, once asked alone
    if protocol == "http":
        assert "moves count=3 behaviour=good -> 200 choices" in log


@pytest.mark.parametrize("protocol,behaviour", [
    ("grpc", "crash"), ("http", "crash"), ("grpc", "garbage"), ("http", "garbage"), ("grpc", "illegal"),
    ("http", "illegal"), ("http", "redirect"),
])
def test_each_behaviour_of_the_example_agent_is_what_each_decision_alone_gets(agents, client_for, protocol, behaviour):
    """A failed batch from an agent that has not yet answered one (it may be an agent of an older
    kind, answering anything it does not know with a 500) is asked each decision alone: the same
    failure kind and words as asking alone; an answered batch's illegal choices are each its own."""
    agent = agents(protocol, behaviour)
    client = client_for(agent)
    outcomes = outcomes_of(client, [request(v) for v in range(3)])
    alone = client_for(agent)
    for outcome, v in zip(outcomes, range(3)):
        with pytest.raises(AgentFailure) as expected:
            alone.choose(request(v), TIMEOUT_S)
        assert isinstance(outcome, AgentFailure) and outcome.kind == expected.value.kind, outcome
        if behaviour != "illegal":
            assert outcome.message == expected.value.message
        else:  # the batch was answered: its choices are each checked
            assert "index 6, but 6 legal moves" in outcome.message
    assert client._batches is (True if behaviour == "illegal" else False)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_agent_that_does_not_answer_its_first_batch_is_asked_each_decision_alone_in_time(protocol):
    """An agent of an older kind may never answer a request it does not know: the first batch is
    given up at half the shortest time (at most 1 s, ``PROBE_S``), and each decision asked alone
    with the time it has left, its ``time_left_ms`` less the time spent, then one call a decision."""
    release = threading.Event()
    agent = Counting(batch=lambda requests: (release.wait(10), None)[1])
    try:
        with served(protocol, agent) as client:
            began = time.monotonic()
            outcomes = outcomes_of(client, [request(3), request(4)], timeouts=[2.0, 2.5])
            took = time.monotonic() - began
            assert [o.index for o in outcomes] == [3, 4] and client._batches is False
            assert agent.calls == {"one": 2, "many": 1}
    finally:
        release.set()
    assert 0.95 < took < 6
    assert all(t < 12000 for t in agent.told_left)  # the time spent on the batch is not offered again


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_while_the_first_batch_is_out_the_other_decisions_go_alone(protocol):
    """Until an agent has answered a batch, one batch at a time is out to it: an agent of an older
    kind that never answers one is sent one per client, not one a round (a fresh user's trial)."""
    release = threading.Event()
    agent = Counting(batch=lambda requests: (release.wait(10), None)[1])
    try:
        with served(protocol, agent) as client:
            first: list = []
            client.choose_many_async([(request(v), 3.0, first.append) for v in (1, 2)])  # the probe, out
            assert client._probing
            meanwhile = outcomes_of(client, [request(v) for v in (3, 4)])
            assert [o.index for o in meanwhile] == [3, 4] and agent.calls == {"one": 2, "many": 1}
            wait_for(lambda: len(first) == 2, 10, "the probe's decisions, asked alone once it was given up")
            assert sorted(o.index for o in first) == [1, 2] and client._batches is False and not client._probing
            later = outcomes_of(client, [request(v) for v in (5, 6)])
            assert [o.index for o in later] == [5, 0] and agent.calls == {"one": 6, "many": 1}
    finally:
        release.set()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_agent_that_served_batches_and_then_sleeps_is_a_timeout_for_each_decision_of_its_own_time(protocol):
    """Once an agent has answered a batch, a batch's deadline is the longest of its decisions'
    times; each decision that gets no answer is a ``timeout`` of its own time (the caller then
    judges an answer against its own decision's time: services/phases/agents.py ``late``)."""
    release = threading.Event()
    replies = iter([[0, 0], None])

    def batch(requests):
        reply = next(replies)
        if reply is None:
            release.wait(10)
            return [0, 0]
        return reply

    agent = Counting(batch=batch)
    try:
        with served(protocol, agent) as client:
            assert [o.index for o in outcomes_of(client, [request(1), request(2)])] == [0, 0]
            began = time.monotonic()
            outcomes = outcomes_of(client, [request(1), request(2)], timeouts=[0.4, 0.5])
            took = time.monotonic() - began
            release.set()
            assert client._batches is True
    finally:
        release.set()
    assert [o.kind for o in outcomes] == ["timeout", "timeout"]
    assert ["ChooseMoves within 0.4 s" in outcomes[0].message, "ChooseMoves within 0.5 s" in outcomes[1].message] \
        == [True, True]
    assert 0.45 < took < 5


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_agent_unreachable_at_its_first_batch_is_sent_batches_once_it_is_back(protocol):
    """No connection says nothing about batches: each decision fails as it fails alone (a crash),
    and the next batch is tried once the agent listens."""
    port = free_port()
    client = client_at(protocol, port)
    try:
        down = outcomes_of(client, [request(1), request(2)])
        assert [o.kind for o in down] == ["crash", "crash"] and client._batches is None
        agent = Counting(batch=lambda requests: [5] * len(requests))
        with served(protocol, agent, port=port, client=client):
            back_by = time.monotonic() + 10
            while time.monotonic() < back_by:  # bounded: gRPC's channel reconnects after its backoff
                outcomes = outcomes_of(client, [request(1), request(2)])
                if [getattr(o, "index", None) for o in outcomes] == [5, 5]:  # a batch's answer
                    break
                # not yet: the batch found no connection, and each was asked alone (failed or answered)
                assert client._batches is None, "batches given up for an agent that was only away"
            assert [o.index for o in outcomes] == [5, 5]
        assert agent.calls["many"] >= 1 and client._batches is True
    finally:
        client.close()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_wrong_secret_is_refused_for_every_decision(agents, client_for, protocol):
    client = client_for(agents(protocol, "good"), secret="not-the-agents-secret-42")
    outcomes = outcomes_of(client, [request(v) for v in range(2)])
    assert [o.kind for o in outcomes] == ["crash", "crash"]
    assert all("not-the-agents-secret-42" not in o.message for o in outcomes)


# -- agents of one decision a call -----------------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("only_one,reply", [(True, None), (False, None), (False, 404), (False, 500)],
                         ids=["never-heard-of-it", "says-not-served", "404", "breaks"])
def test_an_agent_without_batches_is_asked_each_decision_alone_and_from_then_on_one_call_each(protocol, only_one,
                                                                                              reply):
    """gRPC: UNIMPLEMENTED (gRPC's own answer for a method the server lacks, or the servicer's);
    HTTP: 400 or 404 for the unknown type, or a lax agent's ``{"index": 0}`` with no ``choices``;
    and any failure before the agent has answered a batch (a 500, INTERNAL)."""
    agent = Counting(batch=lambda requests: reply)
    with served(protocol, agent, only_one) as client:
        first = outcomes_of(client, [request(v) for v in (3, 4, 5)])
        assert [o.index for o in first] == [3, 4, 5]
        assert client._batches is False
        tried = 0 if only_one else 1
        assert agent.calls == {"one": 3, "many": tried}
        again = outcomes_of(client, [request(v) for v in (7, 8)])
        assert [o.index for o in again] == [1, 2]
        assert agent.calls == {"one": 5, "many": tried}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_one_decision_goes_in_a_call_of_its_own(protocol):
    agent = Counting(batch=lambda requests: pytest.fail("one decision asked in a batch"))
    with served(protocol, agent) as client:
        assert [o.index for o in outcomes_of(client, [request(4)])] == [4]
    assert agent.calls == {"one": 1, "many": 0}


# -- what a batch's reply counts for ---------------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("reply,expected", [
    ([1, 2, 3], [1, 2, 3]),
    ([1, NO_INDEX, 3], [1, "malformed", 3]),
    ([1, 9, 3], [1, ("illegal", "index 9, but 6 legal moves"), 3]),
    ([1, "my model ran out of memory", 3], [1, ("crash", "failed that decision in ChooseMoves: my model ran out"), 3]),
], ids=["all", "one-without-index", "one-illegal", "one-failed"])
def test_each_choice_of_a_reply_counts_for_its_own_request(protocol, reply, expected):
    """A reply's choices answer the requests in order: a choice without an index, out of range, or
    where the agent says it failed, is that request's failure alone (protos/agent.proto,
    MoveChoices; services/agents/protocol.py ``parse_choices``)."""
    agent = Counting(batch=lambda requests: reply)
    with served(protocol, agent) as client:
        outcomes = outcomes_of(client, [request(v) for v in range(3)])
        assert client._batches is True
    assert agent.calls == {"one": 0, "many": 1}
    for outcome, want in zip(outcomes, expected):
        if isinstance(want, int):
            assert not isinstance(outcome, AgentFailure) and outcome.index == want
            continue
        kind, words = want if isinstance(want, tuple) else (want, "")
        assert isinstance(outcome, AgentFailure) and outcome.kind == kind and words in outcome.message, outcome


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("bad,kind,words", [
    ([1, 2], "malformed", "2 choices for 3 requests"),
    ([1, 2, 3, 4], "malformed", "4 choices for 3 requests"),
    (b"\xff\xff\xff", "malformed", "bad reply"),
    (500, "crash", "ChooseMoves"),
], ids=["too-few", "too-many", "not-a-reply", "500"])
def test_a_bad_reply_fails_every_decision_once_the_agent_has_answered_a_batch_and_asks_them_alone_before(
        protocol, bad, kind, words):
    """Before the agent has answered a batch, a bad reply is taken for an agent that does not serve
    them (each decision asked alone, then one call a decision); after, it fails every decision."""
    replies = iter([[0, 0, 0], bad])
    agent = Counting(batch=lambda requests: next(replies))
    with served(protocol, agent) as client:
        assert [o.index for o in outcomes_of(client, [request(v) for v in range(3)])] == [0, 0, 0]
        last = outcomes_of(client, [request(v) for v in range(3)])
        assert client._batches is True
    assert agent.calls == {"one": 0, "many": 2}
    assert all(isinstance(o, AgentFailure) and o.kind == kind and words in o.message for o in last), last
    fresh = Counting(batch=lambda requests: bad)
    with served(protocol, fresh) as client:
        assert [o.index for o in outcomes_of(client, [request(v) for v in range(3)])] == [0, 1, 2]
        assert client._batches is False
    assert fresh.calls == {"one": 3, "many": 1}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_agent_that_served_batches_and_then_does_not_is_asked_alone_once_and_a_batch_again_after(protocol):
    """A proxy's 404 or an UNIMPLEMENTED while an agent is redeployed does not stop batches for good."""
    replies = iter([[0, 0], 404, [1, 1]])
    agent = Counting(batch=lambda requests: next(replies))
    with served(protocol, agent) as client:
        assert [o.index for o in outcomes_of(client, [request(4), request(5)])] == [0, 0]
        assert [o.index for o in outcomes_of(client, [request(4), request(5)])] == [4, 5]  # alone
        assert client._batches is None
        assert [o.index for o in outcomes_of(client, [request(4), request(5)])] == [1, 1]
        assert client._batches is True
    assert agent.calls == {"one": 2, "many": 3}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_call_is_signed_once_over_its_bytes_and_holds_each_request_whole(protocol):
    agent = Counting(batch=lambda requests: [0] * len(requests))  # Counting checks the signature
    sent = [request(v, n=2 + v, match=f"m{v}") for v in range(3)]
    with served(protocol, agent) as client:
        assert all(not isinstance(o, AgentFailure) for o in outcomes_of(client, sent))
    assert agent.seen == [[(r.match_id, r.version, r.legal_moves_json, r.view_json, r.time_left_ms) for r in sent]]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_bad_timeout_among_the_decisions_sends_none_of_them(protocol):
    agent = Counting(batch=lambda requests: [version for _, version, *_ in requests])
    with served(protocol, agent) as client:
        told: list = []
        with pytest.raises(ValueError, match="positive number of seconds"):
            client.choose_many_async([(request(1), TIMEOUT_S, told.append), (request(2), 0, told.append)])
        assert [o.index for o in outcomes_of(client, [request(1), request(2)])] == [1, 2]
    assert told == [] and agent.calls == {"one": 0, "many": 1}


# -- how decisions are grouped ------------------------------------------------------------------------
def test_batches_group_decisions_of_like_time_and_bounded_size():
    """services/agents/client.py ``batches``: shortest time first; a batch closes where the next
    decision's time is over 1.5 times its first's, at 32 decisions, or past 1 MiB of requests; a
    request larger alone is a batch of its own. Every decision is in exactly one batch."""
    def ask(timeout_s: float, view_bytes: int = 10):
        return (request(0).model_copy(update={"view_json": '{"x":"' + "a" * view_bytes + '"}'}), timeout_s, None)

    times = [ask(t) for t in (10.0, 1.0, 1.4, 14.0, 1.6, 9.0)]
    grouped = batches(times)
    assert [[t for _, t, _ in b] for b in grouped] == [[1.0, 1.4], [1.6], [9.0, 10.0], [14.0]]
    assert [len(b) for b in batches([ask(1.0) for _ in range(70)])] == [32, 32, 6]
    big = [ask(1.0, 600_000), ask(1.0, 600_000), ask(1.0), ask(1.0, 2_000_000), ask(1.0)]
    sizes = [[len(r.view_json) // 1000 for r, _, _ in b] for b in batches(big)]
    assert sizes == [[600], [600, 0], [2000], [0]]  # in time order (all equal: as given), bounded by bytes
    assert sorted(id(a) for b in batches(big) for a in b) == sorted(id(a) for a in big)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_decisions_of_unlike_times_go_in_separate_calls(protocol):
    agent = Counting(batch=lambda requests: [0] * len(requests))
    with served(protocol, agent) as client:
        outcomes = outcomes_of(client, [request(1), request(2), request(3)], timeouts=[TIMEOUT_S, 4.0, 0.5])
    assert [o.index for o in outcomes] == [0, 0, 3]  # the first two together, the third alone
    assert agent.calls == {"one": 1, "many": 1}


class Faulty(AgentClient):
    """A client whose second request's call fails in the engine's own code, after the first was
    sent; the first's answer comes once ``answer`` is set."""

    name = "faulty"
    asks_without_thread = True

    def __init__(self) -> None:
        self.answer = threading.Event()
        self.threads: list[threading.Thread] = []

    def _call(self, kind, payload, timeout_s):
        raise AssertionError("not asked in the caller's thread")

    def choose_async(self, payload, timeout_s, done):
        if self.threads:
            raise RuntimeError("the engine broke")
        def answer() -> None:
            self.answer.wait(10)
            done(self._legal(MoveChoice(index=1), payload))

        thread = threading.Thread(target=answer)
        thread.start()
        self.threads.append(thread)


def test_a_fault_sending_one_decision_is_its_crash_alone_and_every_decision_gets_one_outcome():
    client = Faulty()
    got: list[tuple[int, object]] = []
    client.choose_many_async([(request(v), TIMEOUT_S, lambda o, v=v: got.append((v, o))) for v in range(2)])
    assert [(v, o.kind) for v, o in got] == [(1, "crash")] and "the engine broke" in got[0][1].message
    client.answer.set()
    client.threads[0].join(10)
    assert [v for v, _ in got] == [1, 0] and got[1][1].index == 1
