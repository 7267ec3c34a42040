"""The engine's agent clients against the example agents, run as real processes on loopback.

Every behaviour of the examples maps to one AgentFailure kind; deadlines are the engine's
(an agent that sleeps or drips bytes is given up on at the timeout); redirects, wrong
secrets and replays are refused.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler

import grpc
import pytest
import requests

from services.agents.client import (
    AgentClient,
    AgentFailure,
    GrpcAgentClient,
    HttpAgentClient,
    _CallSockets,
    _Deadlines,
    _deadlines,
    make_client,
)
from services.agents.protocol import (
    HEADER_SIGNATURE,
    MatchEnd,
    MatchStart,
    MoveRequest,
    choice_to_move,
    encode,
    signed_headers,
    signed_metadata,
)
from tests.agents.conftest import SECRET
from tests.support.agents import agent_method_server, http_handler_server
from tests.support.ports import free_port

PROTOCOLS = ("http", "grpc")
TIMEOUT_S = 5.0
"""A generous timeout for calls that should succeed or fail fast."""


def start_payload() -> MatchStart:
    return MatchStart(match_id="match-1", game="gnomes", seat=1, players=3, options_json='{"gem_variant":true}',
                      time_control={"move_ms": 2000, "bank_ms": 10000, "max_strikes": 3})


def move_payload(n: int = 6, version: int = 9) -> MoveRequest:
    return MoveRequest(match_id="match-1", game="gnomes", seat=1, version=version,
                       view_json='{"phase":"dig","to_move":[1]}',
                       legal_moves_json=[f'{{"op":"dig","at":{i}}}' for i in range(n)],
                       time_left_ms=12000, bank_ms=10000)


def end_payload() -> MatchEnd:
    return MatchEnd(match_id="match-1", seat=1, result_json='{"scores":[1,4,2],"winners":[1],"strikes":[0,0,0]}')


def failure_of(client: AgentClient, timeout_s: float = TIMEOUT_S) -> AgentFailure:
    with pytest.raises(AgentFailure) as info:
        client.choose(move_payload(), timeout_s)
    failure = info.value
    assert SECRET not in str(failure) and SECRET not in repr(failure)
    return failure


# -- good agents ---------------------------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_good_agent_plays_a_whole_match_with_legal_indexes(agents, client_for, protocol):
    agent = agents(protocol, "good")
    client = client_for(agent)
    client.start(start_payload(), TIMEOUT_S)
    seen = set()
    for version in range(10):
        request = move_payload(6, version)
        choice = client.choose(request, TIMEOUT_S)
        assert 0 <= choice.index < 6
        assert choice_to_move(choice, request.legal_moves) == {"op": "dig", "at": choice.index}
        assert client.choose(request, TIMEOUT_S) == choice  # seeded by match and version
        seen.add(choice.index)
    assert len(seen) > 1  # random, not always the first move
    client.end(end_payload(), TIMEOUT_S)
    log = agent.log_text()
    assert "start match=match-1" in log and "end match=match-1" in log
    assert SECRET not in log


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_payloads_may_be_given_as_dicts(agents, client_for, protocol):
    client = client_for(agents(protocol, "good"))
    client.start(start_payload().model_dump(), TIMEOUT_S)
    assert 0 <= client.choose(move_payload().model_dump(), TIMEOUT_S).index < 6


# -- misbehaving agents --------------------------------------------------------------------
@pytest.mark.parametrize("protocol,behaviour,kind,words", [
    ("http", "crash", "crash", "HTTP 500"),
    ("grpc", "crash", "crash", "INTERNAL"),
    ("http", "garbage", "malformed", "not valid JSON"),
    ("grpc", "garbage", "malformed", "not a serialized MoveChoice"),
    ("http", "illegal", "illegal", "index 6, but 6 legal moves"),
    ("grpc", "illegal", "illegal", "index 6, but 6 legal moves"),
])
def test_each_behaviour_is_its_failure_kind(agents, client_for, protocol, behaviour, kind, words):
    agent = agents(protocol, behaviour)
    client = client_for(agent)
    client.start(start_payload(), TIMEOUT_S)  # start and end are acknowledged whatever the behaviour
    failure = failure_of(client)
    assert failure.kind == kind
    assert words in failure.message and agent.record()["name"] in failure.message
    client.end(end_payload(), TIMEOUT_S)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_sleeping_agent_times_out_on_the_engines_clock(agents, client_for, protocol):
    client = client_for(agents(protocol, "sleep"))  # sleeps 30 s before answering
    began = time.monotonic()
    failure = failure_of(client, timeout_s=0.5)
    elapsed = time.monotonic() - began
    assert failure.kind == "timeout" and "within 0.5 s" in failure.message
    assert 0.4 < elapsed < 10


def test_a_dripping_http_agent_times_out_and_frees_its_thread(agents, client_for):
    # The agent sends a byte every 0.2 s for 30 s: every socket read succeeds in time, so
    # only a total deadline stops it. With a pool of one thread, the next call can run
    # only if the abandoned call let go of its thread.
    with ThreadPoolExecutor(1) as pool:
        dripping = client_for(agents("http", "drip"), executor=pool)
        good = client_for(agents("http", "good"), executor=pool)
        began = time.monotonic()
        failure = failure_of(dripping, timeout_s=0.5)
        assert failure.kind == "timeout"
        assert time.monotonic() - began < 10
        assert 0 <= good.choose(move_payload(), TIMEOUT_S).index < 6
        assert time.monotonic() - began < 10


def test_a_dripping_http_agent_at_an_ip_address_is_cut_off_on_the_callers_thread(agents, client_for):
    # No executor and an IP address: the call runs on this thread, and only the shared deadline
    # thread, which shuts the socket down, can end a read that gets a byte every 0.2 s.
    dripping = client_for(agents("http", "drip"))
    began = time.monotonic()
    failure = failure_of(dripping, timeout_s=0.5)
    assert failure.kind == "timeout" and "within 0.5 s" in failure.message
    assert time.monotonic() - began < 10  # the agent drips for 30 s


def test_the_deadline_thread_cuts_a_running_call_and_leaves_a_finished_one():
    running, finished, later = _CallSockets(), _CallSockets(), _CallSockets()
    pairs = [socket.socketpair() for _ in range(3)]
    try:
        for call, (mine, _) in zip((running, finished, later), pairs):
            mine.settimeout(TIMEOUT_S)
            call.add(mine)
        finished.finish()
        now = time.monotonic()
        _deadlines.watch(finished, now)
        _deadlines.watch(running, now + 0.05)
        _deadlines.watch(later, now + 60)
        assert pairs[0][0].recv(1) == b""  # cut: the read ends at once (it would wait TIMEOUT_S, then raise)
        assert running.aborted and not later.aborted
        pairs[1][1].sendall(b"x")
        assert pairs[1][0].recv(1) == b"x"  # the finished call's socket still works
    finally:
        later.abort()
        for a, b in pairs:
            a.close()
            b.close()


def test_a_far_deadline_does_not_stop_the_deadline_thread():
    deadlines = _Deadlines()
    far, near = _CallSockets(), _CallSockets()
    mine, theirs = socket.socketpair()
    try:
        mine.settimeout(TIMEOUT_S)
        near.add(mine)
        deadlines.watch(far, time.monotonic() + 1e10)  # beyond what Condition.wait takes
        deadlines._thread.join(0.5)  # it would end at once, on an OverflowError
        assert deadlines._thread.is_alive()
        deadlines.watch(near, time.monotonic() + 0.05)
        assert mine.recv(1) == b""  # the near one is still cut
        assert near.aborted and not far.aborted
    finally:
        far.abort()
        mine.close()
        theirs.close()


def test_one_failed_cut_does_not_leave_the_others_uncut():
    deadlines = _Deadlines()
    broken, fine = _CallSockets(), _CallSockets()

    def fails() -> None:
        raise RuntimeError("a cut that fails")

    broken.abort = fails  # type: ignore[method-assign]
    mine, theirs = socket.socketpair()
    try:
        mine.settimeout(TIMEOUT_S)
        fine.add(mine)
        due = time.monotonic() + 0.1  # both due in the same pass of the thread, the broken one first
        deadlines.watch(broken, due)
        deadlines.watch(fine, due)
        assert mine.recv(1) == b""
        assert fine.aborted and deadlines._thread.is_alive()
    finally:
        mine.close()
        theirs.close()


def test_the_deadline_heap_holds_about_the_calls_running():
    deadlines = _Deadlines(compact_at=8)  # instead of COMPACT_AT, to see it with few calls
    running = _CallSockets()
    deadlines.watch(running, time.monotonic() + 600)
    for _ in range(100):
        call = _CallSockets()
        deadlines.watch(call, time.monotonic() + 600)
        call.finish()
    assert len(deadlines._heap) <= 16  # not 101: finished calls are cleared out as it grows
    assert any(entry[2] is running for entry in deadlines._heap)
    running.abort()


def test_a_call_ends_once_finished_or_aborted():
    finished, aborted = _CallSockets(), _CallSockets()
    pairs = [socket.socketpair() for _ in range(2)]
    try:
        finished.add(pairs[0][0])
        aborted.add(pairs[1][0])
        assert finished.finish() is True
        finished.abort()  # too late: the connection may serve another call by now
        pairs[0][1].sendall(b"x")
        assert pairs[0][0].recv(1) == b"x"
        aborted.abort()
        assert aborted.finish() is False  # what it read is not an answer
        pairs[1][0].settimeout(TIMEOUT_S)
        assert pairs[1][0].recv(1) == b""
    finally:
        for a, b in pairs:
            a.close()
            b.close()


def test_an_http_redirect_is_refused_not_followed(agents, client_for):
    agent = agents("http", "redirect")
    failure = failure_of(client_for(agent))
    assert failure.kind == "crash"
    assert "redirect (HTTP 307)" in failure.message and "not followed" in failure.message
    assert "/elsewhere" not in agent.log_text()  # the engine never went there


def test_an_oversized_http_answer_is_malformed():
    class Big(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            body = b'{"index": 0, "pad": "' + b"x" * (70 * 1024) + b'"}'
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with http_handler_server(Big) as port, HttpAgentClient(f"http://127.0.0.1:{port}/", SECRET) as client:
        failure = failure_of(client)
    assert failure.kind == "malformed" and "65536 bytes" in failure.message


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_nothing_listening_is_a_crash(protocol):
    port = free_port()
    address = f"http://127.0.0.1:{port}/" if protocol == "http" else f"127.0.0.1:{port}"
    with make_client({"agent_id": "a1", "name": "gone", "protocol": protocol, "address": address,
                      "secret": SECRET}) as client:
        began = time.monotonic()
        failure = failure_of(client)
    assert failure.kind == "crash" and "could not be reached" in failure.message
    assert time.monotonic() - began < TIMEOUT_S + 1


# -- signatures seen from the agent ----------------------------------------------------------
@pytest.mark.parametrize("protocol,words", [("http", "HTTP 401"), ("grpc", "refused the engine's signature")])
def test_an_agent_refuses_the_wrong_secret(agents, client_for, protocol, words):
    agent = agents(protocol, "good")
    failure = failure_of(client_for(agent, secret="not-the-agents-secret-42"))
    assert failure.kind == "crash" and words in failure.message
    assert "not-the-agents-secret-42" not in failure.message
    assert "not-the-agents-secret-42" not in agent.log_text()


def test_the_http_agent_refuses_unsigned_tampered_and_replayed_requests(agents):
    agent = agents("http", "good")
    body = encode(move_payload())
    headers = {"Content-Type": "application/json", **signed_headers(SECRET, body)}
    with requests.Session() as session:
        session.trust_env = False

        def post(data: bytes, hdrs: dict[str, str]) -> requests.Response:
            return session.post(agent.address, data=data, headers=hdrs, timeout=TIMEOUT_S, allow_redirects=False)

        assert post(body, {"Content-Type": "application/json"}).status_code == 401
        assert post(body.replace(b"dig", b"dug"), headers).status_code == 401
        first = post(body, headers)
        assert first.status_code == 200 and 0 <= first.json()["index"] < 6
        again = post(body, headers)
        assert again.status_code == 409 and "already received" in again.json()["error"]
        stale = {"Content-Type": "application/json", **signed_headers(SECRET, body, now=time.time() - 400)}
        assert post(body, stale).status_code == 401
        wrong = {**signed_headers(SECRET, body), HEADER_SIGNATURE: "v1," + "A" * 44}
        assert post(body, wrong).status_code == 401


def test_the_grpc_agent_refuses_a_replayed_call(agents):
    from services.agents.grpc_wire import to_pb

    agent = agents("grpc", "good")
    body = to_pb(move_payload()).SerializeToString()
    metadata = signed_metadata(SECRET, body)
    with grpc.insecure_channel(agent.address) as channel:
        choose = channel.unary_unary("/longhouse.agent.v1.Agent/ChooseMove")
        assert choose(body, timeout=TIMEOUT_S, metadata=metadata)
        with pytest.raises(grpc.RpcError) as info:
            choose(body, timeout=TIMEOUT_S, metadata=metadata)
        assert info.value.code() == grpc.StatusCode.ALREADY_EXISTS
        with pytest.raises(grpc.RpcError) as info:
            choose(body, timeout=TIMEOUT_S)
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED


# -- construction ---------------------------------------------------------------------------
def test_make_client_builds_the_protocols_client_and_hides_the_secret():
    http = make_client({"agent_id": "a1", "name": "alice", "protocol": "http",
                        "address": "https://user:pw@agents.example:8443/hook?key=k", "secret": SECRET})
    grpc_client = make_client({"agent_id": "a2", "name": "bob", "protocol": "grpc",
                               "address": "127.0.0.1:9", "secret": SECRET})
    try:
        assert isinstance(http, HttpAgentClient) and isinstance(grpc_client, GrpcAgentClient)
        assert SECRET not in repr(http) and SECRET not in repr(grpc_client)
        assert make_client({"protocol": "http", "address": "http://example.invalid:1/x",
                            "secret": SECRET}).name == "http://example.invalid:1"
    finally:
        http.close()
        grpc_client.close()
    for bad in ({"protocol": "smoke", "address": "x:1", "secret": SECRET},
                {"protocol": "http", "address": "ftp://x/", "secret": SECRET},
                {"protocol": "grpc", "address": "", "secret": SECRET},
                {"protocol": "grpc", "address": "x:1", "secret": ""}):
        with pytest.raises(ValueError) as info:
            make_client({"agent_id": "a3", "name": "carol", **bad})
        assert SECRET not in str(info.value)


def test_an_http_agents_name_never_shows_its_url_credentials():
    with HttpAgentClient("http://user:pw@127.0.0.1:9/hook?token=t0k3n", SECRET) as client:
        assert client.name == "http://127.0.0.1:9"


def test_timeouts_and_failure_kinds_are_checked():
    with HttpAgentClient("http://127.0.0.1:9/", SECRET) as client:
        for bad in (0, -1, float("nan"), float("inf"), True, "1"):
            with pytest.raises(ValueError):
                client.choose(move_payload(), bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        AgentFailure("sulk", "no")  # type: ignore[arg-type]
    assert AgentFailure("timeout", "late").kind == "timeout"


# -- asking without a thread (the movers' desk) ------------------------------------------------
def async_outcome(client: AgentClient, payload: MoveRequest, timeout_s: float = TIMEOUT_S):
    """What ``client.choose_async`` hands its callback (a MoveChoice or an AgentFailure), called
    once; the wait for it is bounded."""
    got: list = []
    done = threading.Event()

    def answered(outcome) -> None:
        got.append(outcome)
        done.set()

    client.choose_async(payload, timeout_s, answered)
    assert done.wait(timeout_s + 10), "the callback was never called"
    assert len(got) == 1
    return got[0]


def sync_outcome(client: AgentClient, payload: MoveRequest, timeout_s: float = TIMEOUT_S):
    try:
        return client.choose(payload, timeout_s)
    except AgentFailure as exc:
        return exc


def same_both_ways(client: AgentClient, secret: str, timeout_s: float, stop_at_failure: bool):
    """Ask ``client`` for three moves (versions 0-2 of six legal moves) both ways, each time
    ``choose_async`` first, and check the outcomes agree: the same choice, or the same failure kind
    and words (never quoting ``secret``). With ``stop_at_failure``, stops after the first and
    returns ``(async outcome, its seconds, both calls' seconds)``; else None."""
    for version in range(3):
        payload = move_payload(6, version)
        began = time.monotonic()
        outcome = async_outcome(client, payload, timeout_s)
        took = time.monotonic() - began
        expected = sync_outcome(client, payload, timeout_s)
        if isinstance(expected, AgentFailure):
            assert isinstance(outcome, AgentFailure), outcome
            assert (outcome.kind, outcome.message) == (expected.kind, expected.message)
            assert secret not in outcome.message
        else:
            assert outcome == expected and 0 <= outcome.index < 6
        if stop_at_failure:
            return outcome, took, time.monotonic() - began
    return None


@pytest.mark.parametrize("behaviour,secret,timeout_s", [
    ("good", SECRET, TIMEOUT_S), ("crash", SECRET, TIMEOUT_S), ("garbage", SECRET, TIMEOUT_S),
    ("illegal", SECRET, TIMEOUT_S), ("sleep", SECRET, 0.5), ("good", "not-the-agents-secret-42", TIMEOUT_S),
])
def test_a_grpc_call_without_a_thread_gives_what_the_blocking_call_gives(agents, client_for, behaviour, secret,
                                                                         timeout_s):
    """``choose_async`` (services/agents/client.py) sends the same signed bytes as ``choose`` and
    reads the answer with the same checks: the same choice for a good agent (it is seeded by match
    and version), the same failure kind and words for each misbehaviour, a timeout on the
    engine's clock. (That the call returns before the answer: the trace test of choose_async.)"""
    client = client_for(agents("grpc", behaviour), secret=secret)
    assert client.asks_without_thread
    gave_up = same_both_ways(client, secret, timeout_s, stop_at_failure=behaviour == "sleep")
    if behaviour == "sleep":
        outcome, _, both = gave_up
        assert outcome.kind == "timeout" and both < 2 * timeout_s + 5


@pytest.mark.parametrize("behaviour,secret,timeout_s", [
    ("good", SECRET, TIMEOUT_S), ("crash", SECRET, TIMEOUT_S), ("garbage", SECRET, TIMEOUT_S),
    ("illegal", SECRET, TIMEOUT_S), ("redirect", SECRET, TIMEOUT_S), ("sleep", SECRET, 0.5), ("drip", SECRET, 0.5),
    ("good", "not-the-agents-secret-42", TIMEOUT_S),
])
def test_a_webhook_call_from_the_agent_loop_gives_what_the_blocking_call_gives(agents, client_for, behaviour, secret,
                                                                               timeout_s):
    """``HttpAgentClient.choose_async`` (services/agents/client.py, aiohttp on the agent loop) posts
    the same signed body and reads the answer with the same checks as ``choose``: the same choice
    for a good agent, the same failure kind and words for each misbehaviour (a redirect not
    followed, an agent that sleeps or drips bytes given up at the engine's deadline)."""
    agent = agents("http", behaviour)
    client = client_for(agent, secret=secret)
    assert client.asks_without_thread
    gave_up = same_both_ways(client, secret, timeout_s, stop_at_failure=behaviour in ("sleep", "drip"))
    if behaviour in ("sleep", "drip"):
        outcome, took, _ = gave_up
        assert outcome.kind == "timeout" and took < timeout_s + 1.0, took
    if behaviour == "redirect":
        assert "/elsewhere" not in agent.log_text()  # neither way of asking went there


def test_a_grpc_call_without_a_thread_to_nothing_listening_is_a_crash():
    port = free_port()
    with make_client({"agent_id": "a1", "name": "gone", "protocol": "grpc", "address": f"127.0.0.1:{port}",
                      "secret": SECRET}) as client:
        outcome = async_outcome(client, move_payload())
    assert isinstance(outcome, AgentFailure) and outcome.kind == "crash" and "could not be reached" in outcome.message


@pytest.mark.parametrize("record", [
    {"protocol": "grpc", "address": "localhost:9"},  # a host name: its lookup needs a thread
])
def test_a_grpc_agent_named_by_a_host_name_is_asked_in_the_callers_thread(record):
    with make_client({"agent_id": "a1", "name": "n", "secret": SECRET, **record}) as client:
        assert not client.asks_without_thread
        with pytest.raises(NotImplementedError):
            client.choose_async(move_payload(), TIMEOUT_S, lambda outcome: None)


@pytest.mark.parametrize("record", [
    {"protocol": "grpc", "address": "127.0.0.1:9"}, {"protocol": "grpc", "address": "[::1]:9"},
    {"protocol": "http", "address": "http://127.0.0.1:9/"}, {"protocol": "http", "address": "https://[::1]:9/hook"},
    {"protocol": "http", "address": "http://localhost:9/"},  # a webhook's name is looked up on the agent loop's pool
])
def test_an_agent_at_an_ip_address_or_a_webhook_is_asked_without_a_thread(record):
    with make_client({"agent_id": "a1", "name": "n", "secret": SECRET, **record}) as client:
        assert client.asks_without_thread


def test_a_webhook_client_given_its_own_executor_asks_on_it():
    with HttpAgentClient("http://127.0.0.1:9/", SECRET, executor=ThreadPoolExecutor(1)) as client:
        assert not client.asks_without_thread
        with pytest.raises(NotImplementedError):
            client.choose_async(move_payload(), TIMEOUT_S, lambda outcome: None)


def test_a_grpc_agent_back_after_a_while_away_is_reached_within_a_second_or_so():
    """services/agents/client.py RECONNECT_OPTIONS: an agent gone for several seconds (every call a
    ``crash``: could not be reached) is reached again soon after it listens again, not after
    gRPC's default reconnect back-off (1 s growing by 1.6x: 4-6 s after 10 s away). Both ways of
    asking share the channel: the blocking call and the call without a thread."""
    from services.api import agent_pb2

    port = free_port()
    answer = agent_pb2.MoveChoice(index=0).SerializeToString()

    def choose(request: bytes, context) -> bytes:
        return answer

    with make_client({"agent_id": "a1", "name": "back", "protocol": "grpc", "address": f"127.0.0.1:{port}",
                      "secret": SECRET}) as client:
        with agent_method_server("ChooseMove", choose, port):
            assert client.choose(move_payload(), TIMEOUT_S).index == 0
        away_until = time.monotonic() + 10
        failures = 0
        while time.monotonic() < away_until:  # bounded: 10 s of calls that find nobody
            failures += 1
            outcome = async_outcome(client, move_payload())
            assert isinstance(outcome, AgentFailure) and outcome.kind == "crash"
            assert sync_outcome(client, move_payload()).kind == "crash"
            threading.Event().wait(0.05)  # the pace of a game's decisions, not a synchronisation
        with agent_method_server("ChooseMove", choose, port):
            back = time.monotonic()
            reached = None
            while time.monotonic() - back < 10:  # bounded
                if not isinstance(sync_outcome(client, move_payload()), AgentFailure):
                    reached = time.monotonic() - back
                    break
                threading.Event().wait(0.02)
    assert failures > 20
    assert reached is not None and reached < 2.0, f"reached {reached} s after the agent was back"


# -- a process that stops ---------------------------------------------------------------------
def test_abort_calls_cuts_a_blocking_webhook_call_at_once():
    """services/agents/client.py abort_calls (a mover stopping, AgentDesk.stop): a webhook call
    waiting on an agent that never answers ends at once, not at its deadline a minute away, so
    no thread keeps the process from exiting."""
    from services.agents.client import abort_calls

    held = threading.Event()
    asked = threading.Event()

    class Never(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            asked.set()
            held.wait(TIMEOUT_S * 4)  # bounded: the test sets it at its end

        def log_message(self, *args):
            pass

    outcome: list = []
    with http_handler_server(Never, release=held) as port, \
            HttpAgentClient(f"http://127.0.0.1:{port}/", SECRET) as client:
        caller = threading.Thread(target=lambda: outcome.append(sync_outcome(client, move_payload(), 60.0)))
        caller.start()
        assert asked.wait(TIMEOUT_S)
        began = time.monotonic()
        assert abort_calls() == 1
        caller.join(TIMEOUT_S)
        assert not caller.is_alive() and time.monotonic() - began < 2
    assert isinstance(outcome[0], AgentFailure) and outcome[0].kind == "timeout"
    assert abort_calls() == 0  # nothing left running


def test_closing_a_grpc_client_cancels_its_blocking_call():
    """services/phases/agents.py close_clients (a mover stopping) closes the kept clients; a gRPC
    call still running on a thread then ends at once, a ``crash``, not at its deadline."""
    from services.phases import agents as phase_agents

    held = threading.Event()
    asked = threading.Event()

    def choose(request: bytes, context) -> bytes:
        asked.set()
        held.wait(TIMEOUT_S * 4)  # bounded: the test sets it at its end
        return b""

    outcome: list = []
    with agent_method_server("ChooseMove", choose) as port:
        try:
            client = make_client({"agent_id": "a1", "name": "slow", "protocol": "grpc",
                                  "address": f"127.0.0.1:{port}", "secret": SECRET})
            caller = threading.Thread(target=lambda: outcome.append(sync_outcome(client, move_payload(), 60.0)))
            caller.start()
            assert asked.wait(TIMEOUT_S)
            began = time.monotonic()
            phase_agents._clients[("a1", "grpc", "x", ())] = client
            phase_agents.close_clients()
            caller.join(TIMEOUT_S)
            assert not caller.is_alive() and time.monotonic() - began < 2
            assert not phase_agents._clients
        finally:
            held.set()
    assert isinstance(outcome[0], AgentFailure) and outcome[0].kind == "crash"


def test_a_grpc_agents_answers_are_read_by_one_thread_for_the_channels_life():
    """services/agents/grpc_wire.py ChannelReader: calls made one after another (an agent's decisions)
    are read by the same thread, not by a thread gRPC starts for each; closing the client stops the
    thread before the channel is closed (idle, or with a call in flight, which is then a ``crash`` at
    once, not a timeout at its deadline), and the call that wakes it never reaches the agent."""
    from services.api import agent_pb2

    hold, asked, release = threading.Event(), threading.Event(), threading.Event()
    answered = agent_pb2.MoveChoice(index=0).SerializeToString()
    ends: list[bytes] = []

    def choose(request: bytes, context) -> bytes:
        if hold.is_set():
            asked.set()
            release.wait(TIMEOUT_S * 4)  # bounded; set when the test ends
        return answered

    def ask(client: GrpcAgentClient, version: int, timeout_s: float) -> tuple[list, threading.Event]:
        got: list = []
        done = threading.Event()
        client.choose_async(move_payload(version=version), timeout_s,
                            lambda outcome: (got.append((outcome, threading.current_thread())), done.set()))
        return got, done

    faults: list = []
    before = threading.excepthook
    threading.excepthook = faults.append
    try:
        with agent_method_server("ChooseMove", choose, also={"EndMatch": lambda r, c: ends.append(r) or b""}) as port:
            readers: list[threading.Thread] = []
            for _ in range(30):  # opened and closed idle: each time the reader stops, no wake call is sent
                client = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="quick")
                for version in range(2, 5):
                    got, done = ask(client, version, TIMEOUT_S)
                    assert done.wait(TIMEOUT_S) and got[0][0].index == 0
                    readers.append(got[0][1])
                assert len({id(t) for t in readers[-3:]}) == 1 and readers[-1].name == "agent-grpc-read"
                client.close()
                readers[-1].join(TIMEOUT_S)
                assert not readers[-1].is_alive()
            client = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="quick")
            hold.set()
            got, done = ask(client, 7, 60.0)
            assert asked.wait(TIMEOUT_S)
            began = time.monotonic()
            client.close()
            assert done.wait(TIMEOUT_S) and time.monotonic() - began < 2
            got[0][1].join(TIMEOUT_S)
            assert not got[0][1].is_alive()
            release.set()
        assert isinstance(got[0][0], AgentFailure) and got[0][0].kind == "crash"
        assert ends == []
    finally:
        release.set()
        threading.excepthook = before
    assert not faults, faults


def _quick_server():
    """A ChooseMove server answering index 0 at once (and EndMatch, to see a wake call reach it)."""
    from services.api import agent_pb2

    answered = agent_pb2.MoveChoice(index=0).SerializeToString()
    return agent_method_server("ChooseMove", lambda r, c: answered, also={"EndMatch": lambda r, c: b""})


def _asked(client: GrpcAgentClient, timeout_s: float = TIMEOUT_S):
    """``client.choose_async`` once, waited for (bounded): its outcome."""
    got: list = []
    done = threading.Event()
    client.choose_async(move_payload(), timeout_s, lambda outcome: (got.append(outcome), done.set()))
    assert done.wait(timeout_s + 5), "the callback was never called"
    return got[0]


def test_a_close_that_races_a_reopening_call_still_stops_the_old_reader(monkeypatch):
    """services/agents/client.py close: the channel it lets go and that channel's reader are taken
    together, so a call that pins a new channel meanwhile (another thread) cannot leave the old
    channel closed under its reader (a trial's finding: the process then crashed)."""
    faults: list = []
    monkeypatch.setattr(threading, "excepthook", faults.append)
    slow = GrpcAgentClient._close_channel

    def slowly(channel, reader, running):
        time.sleep(0.3)  # the window in which the other thread's call pins a new channel
        slow(channel, reader, running)

    monkeypatch.setattr(GrpcAgentClient, "_close_channel", staticmethod(slowly))
    with _quick_server() as port:
        client = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="quick")
        assert _asked(client).index == 0
        old = client._reader._thread
        closing = threading.Thread(target=client.close)
        closing.start()
        time.sleep(0.05)  # close has let the channel go and waits in slowly()
        assert _asked(client).index == 0  # pins a new channel, with a reader of its own
        closing.join(TIMEOUT_S)
        old.join(TIMEOUT_S)
        assert not closing.is_alive() and not old.is_alive()
        new = client._reader._thread
        assert new is not old and new.is_alive()
        client.close()
        new.join(TIMEOUT_S)
        assert not new.is_alive()
    assert not faults, faults


def test_a_client_let_go_in_its_own_answers_callback_closes_without_a_fault():
    """A client dropped with a call in flight is let go on its reader's thread once the answer is
    read; its finalizer then closes the channel from that thread, without joining itself (a trial's
    finding: "cannot join current thread"), and the thread ends."""
    import gc

    unraisable: list = []
    before = sys.unraisablehook
    sys.unraisablehook = unraisable.append
    try:
        with _quick_server() as port:
            readers: list[threading.Thread] = []
            for _ in range(5):
                done = threading.Event()
                client = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="quick")
                client.choose_async(move_payload(), TIMEOUT_S,
                                    lambda outcome: (readers.append(threading.current_thread()), done.set()))
                del client
                assert done.wait(TIMEOUT_S)
            gc.collect()
            for reader in readers:
                reader.join(TIMEOUT_S)
            assert not any(reader.is_alive() for reader in readers)
    finally:
        sys.unraisablehook = before
    assert not unraisable, [u.exc_value for u in unraisable]


def test_a_forked_child_can_use_and_close_a_client_its_parent_was_reading():
    """services/agents/grpc_wire.py: readers stop around a fork (no thread of ours waits in gRPC's
    polling while the process is copied) and start again in the parent; the child, where no reader
    runs, asks the inherited client (an answer or a failure: the connection is the parent's too),
    closes it, and asks a new one, as it could before readers (a trial's finding: the child crashed in
    6 of 8 runs)."""
    with _quick_server() as port:
        client = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="quick")
        assert _asked(client).index == 0
        pid = os.fork()
        if pid == 0:  # the child: no pytest here, only an exit code
            code = 1
            try:
                # the parent's connection is shared with the parent: a choice, or a failure, but an answer
                inherited = _asked(client)
                client.close()
                fresh = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="fresh")
                ok = _asked(fresh).index == 0 and (isinstance(inherited, AgentFailure) or inherited.index == 0)
                fresh.close()
                code = 0 if ok else 1
            finally:
                os._exit(code)
        deadline = time.monotonic() + 30
        status = None
        while status is None and time.monotonic() < deadline:
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = raw
            else:
                time.sleep(0.05)  # polling the child's exit, bounded by the deadline
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        assert status is not None and os.waitstatus_to_exitcode(status) == 0, status
        assert _asked(client).index == 0  # the parent's reader reads again
        assert client._reader._thread.is_alive()
        client.close()


def test_a_close_after_the_reader_closed_the_channel_itself_does_not_raise(monkeypatch):
    """ChannelReader.close: the reader may see the cancelled calls end and close the channel before
    the waking call is made; that call then finds the channel closed, and close() returns all the
    same (a trial's finding: ``ValueError: Cannot invoke RPC: Channel closed!`` from close)."""
    from services.agents import grpc_wire

    wake = grpc_wire.ChannelReader._wake

    def late(self):
        time.sleep(0.05)  # the reader meanwhile sees the cancelled calls end and closes the channel
        wake(self)

    monkeypatch.setattr(grpc_wire.ChannelReader, "_wake", late)
    release = threading.Event()

    def choose(request: bytes, context) -> bytes:
        release.wait(TIMEOUT_S)  # bounded; set when the test ends
        return b""

    with agent_method_server("ChooseMove", choose, also=None) as port:
        try:
            for _ in range(3):
                client = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="slow")
                outcomes: list = []
                for _ in range(2):
                    client.choose_async(move_payload(), TIMEOUT_S, outcomes.append)
                reader = client._reader._thread
                client.close()  # raises nothing
                reader.join(TIMEOUT_S)
                assert not reader.is_alive()
                assert [o.kind for o in outcomes] == ["crash", "crash"]
        finally:
            release.set()


def test_a_fork_from_an_answers_callback_leaves_the_reader_reading():
    """A fork made in a done callback (on the reader's own thread) does not stop the reader: the
    client's later calls are answered (a trial's reading of the code: the reader would stop after
    the callback, never to start again)."""
    with _quick_server() as port:
        client = GrpcAgentClient(f"127.0.0.1:{port}", SECRET, name="quick")
        forked: list[int] = []
        done = threading.Event()

        def fork_here(outcome) -> None:
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            forked.append(pid)
            done.set()

        client.choose_async(move_payload(), TIMEOUT_S, fork_here)
        assert done.wait(TIMEOUT_S)
        os.waitpid(forked[0], 0)
        for _ in range(3):
            assert _asked(client).index == 0
        client.close()
