"""Agent addresses (issue: access control): the allow-list ``LONGHOUSE_AGENT_ALLOW`` and what the
engine's clients make of it at call time.

The format parses (and a bad entry is refused with its text quoted); loopback, private, link-local,
unspecified, multicast and reserved addresses, IPv4 and IPv6, IPv4-mapped included, are refused
unless an address or network entry lists them; a DNS name is judged by every address it resolves
to (the resolver is replaced here); the HTTP and gRPC clients check at every connection, connect
to the address they checked (a name the system cannot resolve still works through the replaced
resolver: no second lookup), follow no redirect and stop reading at the size cap; over https the
certificate must be trusted and name the URL's host (not the address connected to).
"""

from __future__ import annotations

import base64
import gzip
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import certifi
import pytest
from pydantic import ValidationError

from services.agents import addresses
from services.agents.addresses import AddressRefused, parse_allow_list
from services.agents.client import AgentFailure, GrpcAgentClient, HttpAgentClient, _CallSockets, make_client
from services.agents.protocol import MatchStart, MoveRequest
from services.common.config import Settings
from tests.agents.conftest import SECRET
from tests.support.agents import agent_method_server

TIMEOUT_S = 5.0


def move() -> MoveRequest:
    return MoveRequest(match_id="m", game="gnomes", seat=0, version=3, view_json="{}",
                       legal_moves_json=['{"op":"a"}', '{"op":"b"}'], time_left_ms=5000, bank_ms=0)


@pytest.fixture
def dns(monkeypatch):
    """``dns({"name": ["addr", ...]})``: the resolver every check uses answers from this table
    (any other name does not resolve); ``dns.calls`` lists the names looked up."""
    table: dict[str, list[str]] = {}
    calls: list[str] = []

    def fake(host: str, port: int) -> list[str]:
        calls.append(host)
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(table[host])

    monkeypatch.setattr(addresses, "resolve", fake)

    def set_table(entries: dict[str, list[str]]) -> None:
        table.clear()
        table.update(entries)

    set_table.calls = calls  # type: ignore[attr-defined]
    return set_table


# -- the format -------------------------------------------------------------------------------
def test_the_documented_format_parses_and_reads_back():
    text = "*:443, agents.lab.example.org:50051, *.example.net:*, 10.1.0.0/16:8000-8099, 127.0.0.1:8601, [fd00::/8]:*"
    allow = parse_allow_list(text)
    assert str(allow) == text.replace(", ", ",")
    assert [(r.kind, r.low, r.high) for r in allow.rules] == [
        ("any", 443, 443), ("name", 50051, 50051), ("suffix", 1, 65535), ("network", 8000, 8099),
        ("network", 8601, 8601), ("network", 1, 65535)]
    assert parse_allow_list("").rules == () and parse_allow_list(" , ").rules == ()
    assert Settings(agent_allow=" 127.0.0.1:8601 ,[::1]:*").agent_allow == "127.0.0.1:8601,[::1]:*"


@pytest.mark.parametrize("entry,words", [
    ("127.0.0.1", "is not HOST:PORTS"), ("127.0.0.1:0", "from 1 to 65535"), ("host:90-80", "from 1 to 65535"),
    ("host:http", "a number, a range"), ("::1:80", "in brackets"), ("[fd00::/8:1", "in brackets"),
    ("10.0.0.1/8:1", "not an IPv4 address or network"), ("300.1.1.1:1", "not an IPv4"),
    ("[10.0.0.1]:1", "not an IPv6"), ("bad host:1", "is not a host name"),
])
def test_a_bad_entry_is_refused_by_name(entry, words):
    with pytest.raises(ValueError) as info:
        parse_allow_list(f"127.0.0.1:8601,{entry}")
    assert words in str(info.value) and repr(entry) in str(info.value)
    with pytest.raises(ValidationError):
        Settings(agent_allow=entry)  # a process with a bad allow-list does not start


# -- the check --------------------------------------------------------------------------------
@pytest.mark.parametrize("host,kind", [
    ("127.0.0.1", "loopback"), ("127.9.9.9", "loopback"), ("::1", "loopback"), ("::ffff:127.0.0.1", "loopback"),
    ("10.1.2.3", "private"), ("172.16.0.1", "private"), ("192.168.1.5", "private"), ("fd00::1", "private"),
    ("169.254.169.254", "link-local"), ("fe80::1", "link-local"), ("0.0.0.0", "unspecified"),
    ("::", "unspecified"), ("224.0.0.1", "multicast"), ("ff02::1", "multicast"), ("240.0.0.1", "reserved"),
    ("100.64.0.1", "non-public"), ("192.0.2.1", "private"), ("::ffff:10.0.0.1", "private"),
    ("2002:7f00:1::", "loopback"),  # 6to4 around 127.0.0.1
])
def test_special_addresses_are_refused_unless_listed(host, kind):
    everything_public = parse_allow_list("*:*, *.example.org:*")
    with pytest.raises(AddressRefused) as info:
        everything_public.check(host, 8601)
    assert info.value.code == "address_not_allowed"
    assert f"{kind} address, refused unless listed explicitly" in info.value.reason
    judged = addresses.judged_address(addresses.ipaddress.ip_address(host))
    listed = f"[{judged}]:8601" if judged.version == 6 else f"{judged}:8601"
    assert parse_allow_list(listed).check(host, 8601).addresses == (str(addresses.ipaddress.ip_address(host)),)


def test_a_private_range_listed_as_a_network_is_allowed_on_its_ports_only():
    allow = parse_allow_list("10.0.0.0/8:50051, 192.168.0.0/16:8000-8099")
    assert allow.check("10.20.30.40", 50051).addresses == ("10.20.30.40",)
    assert allow.check("192.168.7.7", 8099).port == 8099
    for host, port in (("10.20.30.40", 50052), ("11.0.0.1", 50051), ("192.168.7.7", 8100), ("172.16.0.1", 50051)):
        with pytest.raises(AddressRefused) as info:
            allow.check(host, port)
        assert info.value.code == "address_not_allowed" and f"{host}:{port}" in info.value.reason


def test_a_name_is_judged_by_every_address_it_resolves_to(dns):
    dns({"agents.example.org": ["203.0.114.9"], "rebound.example.org": ["127.0.0.1"],
         "mixed.example.org": ["8.8.8.8", "10.0.0.5"], "ok.example.org": ["8.8.8.8", "2001:4860::8888"]})
    allow = parse_allow_list("agents.example.org:443, rebound.example.org:443, *.example.org:443")
    assert allow.check("ok.example.org", 443).addresses == ("8.8.8.8", "2001:4860::8888")
    with pytest.raises(AddressRefused) as info:
        allow.check("rebound.example.org", 443)  # listed by name, but it points at loopback
    assert "127.0.0.1 (rebound.example.org resolves to it) is a loopback address" in info.value.reason
    with pytest.raises(AddressRefused) as info:
        allow.check("mixed.example.org", 443)  # one private address among public ones is enough
    assert "10.0.0.5" in info.value.reason and "private" in info.value.reason
    with pytest.raises(AddressRefused) as info:
        allow.check("nowhere.example.org", 443)
    assert info.value.code == "bad_address" and "does not resolve" in info.value.reason
    assert allow.check("agents.example.org", 443).addresses == ("203.0.114.9",)  # public, its name listed


def test_public_addresses_outside_the_allow_list_are_refused(dns):
    dns({"agents.example.org": ["8.8.8.8"], "other.example.com": ["8.8.4.4"]})
    allow = parse_allow_list("agents.example.org:443, 9.9.9.9:50051")
    assert allow.check("agents.example.org", 443).addresses == ("8.8.8.8",)
    assert allow.check("9.9.9.9", 50051).addresses == ("9.9.9.9",)
    for host, port in (("agents.example.org", 8443), ("other.example.com", 443), ("8.8.8.8", 443),
                       ("9.9.9.9", 50052), ("sub.agents.example.org", 443)):
        with pytest.raises(AddressRefused) as info:
            allow.check(host, port)
        assert info.value.code in ("address_not_allowed", "bad_address"), host
    with pytest.raises(AddressRefused) as info:
        parse_allow_list("").check("8.8.8.8", 443)
    assert "is empty, so no agent may be called" in info.value.reason


def test_registry_addresses_are_read_as_the_protocol_says():
    allow = parse_allow_list("8.8.8.8:443, 8.8.8.8:80, 8.8.8.8:50051, [2001:4860::8888]:50051")
    assert allow.check_agent("http", "https://8.8.8.8/hook?key=k").port == 443
    assert allow.check_agent("http", "http://8.8.8.8/").port == 80
    assert allow.check_agent("grpc", "8.8.8.8:50051").host == "8.8.8.8"
    assert allow.check_agent("grpc", "[2001:4860::8888]:50051").host == "2001:4860::8888"
    with pytest.raises(AddressRefused) as info:
        allow.check_agent("http", "http://127.0.0.1:80/secret-path?token=t0k3n")
    assert "secret-path" not in info.value.reason and "t0k3n" not in info.value.reason


# -- HTTP at call time --------------------------------------------------------------------------
class Recorded(BaseHTTPRequestHandler):
    """Answers ``{"index": 0}`` (or what the server's ``reply`` says) and records each request: its
    target and Host header in ``seen``, its Authorization header in ``auth``, the client's port in
    ``peers``. Keeps a connection open between requests (HTTP/1.1)."""

    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.seen.append((self.path, self.headers.get("Host")))
        self.server.auth.append(self.headers.get("Authorization"))
        self.server.peers.append(self.client_address[1])
        status, headers, body = self.server.reply(self)
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        try:
            for chunk in body:
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the engine stopped reading, as it should

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    """An HTTP server on loopback; ``server.reply(handler) -> (status, headers, chunks)``."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Recorded)
    srv.daemon_threads = True
    srv.seen, srv.auth, srv.peers = [], [], []
    srv.reply = lambda h: (200, {"Content-Length": "12"}, [b'{"index": 0}'])
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    srv.port = srv.server_address[1]
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(TIMEOUT_S)


def failure(client, ask=None) -> AgentFailure:
    """The AgentFailure of asking ``client`` for a move (by ``ask``, default ``choose``)."""
    with pytest.raises(AgentFailure) as info:
        (ask or (lambda c, timeout_s=TIMEOUT_S: c.choose(move(), timeout_s)))(client)
    assert SECRET not in str(info.value)
    return info.value


@pytest.fixture(params=["blocking", "agent loop"])
def asking(request):
    """Both ways the engine asks a webhook agent for a move: ``choose`` (on the desk's thread) and
    ``choose_async`` (aiohttp on the agent loop, services/agents/aio.py; a host name looked up and
    checked by its _CheckedResolver).
    ``asking(client, timeout_s=5)`` -> the MoveChoice; raises its AgentFailure."""
    def ask(client, timeout_s: float = TIMEOUT_S):
        if request.param == "blocking":
            return client.choose(move(), timeout_s)
        assert client.asks_without_thread
        got: list = []
        done = threading.Event()
        client.choose_async(move(), timeout_s, lambda outcome: (got.append(outcome), done.set()))
        assert done.wait(timeout_s + 10), "the callback was never called"
        if isinstance(got[0], AgentFailure):
            raise got[0]
        return got[0]
    return ask


def test_http_loopback_outside_the_allow_list_is_never_connected(asking, server):
    with HttpAgentClient(f"http://127.0.0.1:{server.port}/a", SECRET,
                         allow=parse_allow_list(f"*:*, 127.0.0.1:{server.port + 1}")) as client:
        refused = failure(client, asking)
    assert refused.kind == "crash" and "loopback address, refused unless listed" in refused.message
    assert server.seen == []
    with HttpAgentClient(f"http://127.0.0.1:{server.port}/a", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        assert asking(client).index == 0
    assert server.seen == [("/a", f"127.0.0.1:{server.port}")]


def test_http_a_name_resolving_to_loopback_is_refused_at_call_time(asking, server, dns):
    dns({"agent.example.org": ["127.0.0.1"]})
    with HttpAgentClient(f"http://agent.example.org:{server.port}/a", SECRET,
                         allow=parse_allow_list(f"agent.example.org:{server.port}")) as client:
        refused = failure(client, asking)
    assert refused.kind == "crash" and "agent.example.org resolves to it" in refused.message
    assert server.seen == []


def test_http_connects_to_the_address_it_checked(asking, server, dns):
    # agent.example.org exists only in the replaced resolver: the call works only if the client
    # connects to the checked address rather than looking the name up again.
    dns({"agent.example.org": ["127.0.0.1"]})
    with HttpAgentClient(f"http://agent.example.org:{server.port}/a", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        assert asking(client).index == 0
    assert server.seen == [("/a", f"agent.example.org:{server.port}")]  # the Host header keeps the name
    assert dns.calls == ["agent.example.org"]


def test_http_a_slow_lookup_on_the_agent_loop_is_a_timeout_and_holds_no_other_call(server, monkeypatch):
    # a name whose lookup outlasts the call's time: the call is a timeout at its deadline, and a
    # call to another agent made meanwhile from the same loop is answered at once
    slow = threading.Event()

    def lookup(host: str, port: int) -> list[str]:
        if host == "slow.example.org":
            slow.wait(TIMEOUT_S)  # bounded: set at the test's end
        return ["127.0.0.1"]

    monkeypatch.setattr(addresses, "resolve", lookup)
    allow = parse_allow_list(f"127.0.0.1:{server.port}")
    outcomes: list = []
    done = threading.Event()
    try:
        with HttpAgentClient(f"http://slow.example.org:{server.port}/", SECRET, allow=allow) as stuck, \
                HttpAgentClient(f"http://127.0.0.1:{server.port}/", SECRET, allow=allow) as other:
            began = time.monotonic()
            stuck.choose_async(move(), 0.5, lambda o: (outcomes.append(("stuck", o, time.monotonic() - began)), done.set()))
            got = threading.Event()
            other.choose_async(move(), TIMEOUT_S, lambda o: (outcomes.append(("other", o, time.monotonic() - began)),
                                                             got.set()))
            assert got.wait(TIMEOUT_S) and done.wait(TIMEOUT_S)
    finally:
        slow.set()
    by = {name: (outcome, took) for name, outcome, took in outcomes}
    assert by["other"][0].index == 0 and by["other"][1] < 0.5
    assert isinstance(by["stuck"][0], AgentFailure) and by["stuck"][0].kind == "timeout"
    assert 0.45 < by["stuck"][1] < 1.5


def test_http_a_lookup_on_the_agent_loop_waits_for_no_blocked_call(server, dns):
    # every thread of the blocking calls' pool held (host-named agents that never answer, each
    # seat's first request): a webhook named by a host name is still looked up and answered from
    # the agent loop, on the lookup pool of its own
    from services.agents import client as agent_client

    dns({"agent.example.org": ["127.0.0.1"]})
    held = threading.Event()
    pool = agent_client._http_pool()
    blocked = [pool.submit(held.wait, TIMEOUT_S * 2) for _ in range(agent_client.HTTP_POOL_WORKERS)]
    try:
        with HttpAgentClient(f"http://agent.example.org:{server.port}/", SECRET,
                             allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
            got: list = []
            done = threading.Event()
            client.choose_async(move(), 2.0, lambda o: (got.append(o), done.set()))
            assert done.wait(TIMEOUT_S)
        assert not isinstance(got[0], AgentFailure), got[0]
        assert got[0].index == 0 and not any(f.done() for f in blocked)
    finally:
        held.set()


def test_http_a_legacy_spelling_of_an_ipv4_address_is_asked_by_the_blocking_call(server):
    # 127.1 is 127.0.0.1 to the C library, and aiohttp refuses it (a spelling that slips past
    # filters): such an agent is asked on the desk's thread, as it always was, never half the time
    for host in ("127.1", "2130706433"):
        with HttpAgentClient(f"http://{host}:{server.port}/", SECRET,
                             allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
            assert not client.asks_without_thread
            with pytest.raises(NotImplementedError):
                client.choose_async(move(), TIMEOUT_S, lambda outcome: None)
            assert client.choose(move(), TIMEOUT_S).index == 0
    assert len(server.seen) == 2


def test_http_a_redirect_is_a_failure_and_is_not_followed(asking, server):
    server.reply = lambda h: ((302, {"Location": "/elsewhere", "Content-Length": "0"}, [])
                              if h.path == "/a" else (200, {"Content-Length": "12"}, [b'{"index": 1}']))
    with HttpAgentClient(f"http://127.0.0.1:{server.port}/a", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        refused = failure(client, asking)
    assert refused.kind == "crash" and "redirect (HTTP 302)" in refused.message
    assert [path for path, _ in server.seen] == ["/a"]


def test_http_a_urls_user_is_sent_as_basic_auth_and_its_query_kept(asking, server):
    # as the engine's client always did (it was built on requests, which did so): the URL's
    # user and password (percent-decoded) as HTTP Basic auth, its path and query as the target
    with HttpAgentClient(f"http://bot%40x:p%3Ass@127.0.0.1:{server.port}/hook?key=k", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        assert asking(client).index == 0
    assert server.seen == [("/hook?key=k", f"127.0.0.1:{server.port}")]
    assert server.auth == ["Basic " + base64.b64encode(b"bot@x:p:ss").decode()]


def test_http_calls_in_turn_reuse_one_connection(asking, server):
    with HttpAgentClient(f"http://127.0.0.1:{server.port}/", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        for _ in range(3):
            assert asking(client).index == 0
    assert len(server.peers) == 3 and len(set(server.peers)) == 1, server.peers


def test_http_proxies_in_the_environment_are_not_used(asking, server, monkeypatch):
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with HttpAgentClient(f"http://127.0.0.1:{server.port}/a", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        assert asking(client).index == 0
    assert server.seen == [("/a", f"127.0.0.1:{server.port}")]


def test_http_an_answer_without_a_length_cut_at_the_deadline_is_a_timeout(asking, server):
    # an answer delimited by the connection's close: the deadline's cut ends it as a close
    # would, and what was read (nothing) must not pass for the answer
    stalled = threading.Event()

    def stall(handler):
        def body():
            stalled.wait(TIMEOUT_S)
            yield b""
        return 200, {"Connection": "close"}, body()

    server.reply = stall
    try:
        with HttpAgentClient(f"http://127.0.0.1:{server.port}/", SECRET,
                             allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
            began = time.monotonic()
            with pytest.raises(AgentFailure) as info:
                client.start(MatchStart(match_id="m", game="gnomes", seat=0, players=2, options_json="{}",
                                        time_control={"move_ms": 500, "bank_ms": 0, "max_strikes": 3}), 0.5)
            assert info.value.kind == "timeout"
            with pytest.raises(AgentFailure) as info:
                asking(client, 0.5)
            assert info.value.kind == "timeout" and time.monotonic() - began < TIMEOUT_S
    finally:
        stalled.set()


def test_http_a_call_cut_just_before_it_finished_is_a_timeout_and_its_connection_not_reused(server, monkeypatch):
    # the deadline's cut landing between the answer's last byte and the call's end: the call is a
    # timeout, and its connection is closed, not handed to the next call (where the cut would land)
    finish = _CallSockets.finish
    late = {"cut": True}

    def cut_first(call):
        if late["cut"]:
            late["cut"] = False
            call.abort()
        return finish(call)

    monkeypatch.setattr(_CallSockets, "finish", cut_first)
    with HttpAgentClient(f"http://127.0.0.1:{server.port}/", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        with pytest.raises(AgentFailure) as info:
            client.choose(move(), TIMEOUT_S)
        assert info.value.kind == "timeout"
        assert client.choose(move(), TIMEOUT_S).index == 0
    assert len(server.peers) == 2 and server.peers[0] != server.peers[1]


def test_http_a_deadline_cut_never_lands_on_a_connection_another_call_took(server, monkeypatch):
    # urllib3 hands a connection back to its pool as soon as the answer is read, before the call
    # (A) ends; a call (B) that took it then would have it cut by A's deadline. B is made to run
    # in exactly that window: A's deadline comes while B waits for its answer.
    b_asked, b_may_answer = threading.Event(), threading.Event()

    def reply(handler):
        if len(server.seen) == 2:  # B's request
            b_asked.set()
            b_may_answer.wait(TIMEOUT_S)
        return 200, {"Content-Length": "12"}, [b'{"index": 0}']

    server.reply = reply
    finish = _CallSockets.finish
    outcome: dict = {}
    client = HttpAgentClient(f"http://127.0.0.1:{server.port}/", SECRET,
                             allow=parse_allow_list(f"127.0.0.1:{server.port}"))

    def b() -> None:
        try:
            outcome["b"] = client.choose(move(), TIMEOUT_S).index
        except AgentFailure as exc:
            outcome["b"] = exc.kind

    def a_cut_late(call):
        if "thread" not in outcome:  # A's end, once (B's go as they would)
            outcome["thread"] = thread = threading.Thread(target=b)
            thread.start()
            assert b_asked.wait(TIMEOUT_S)
            call.abort()  # A's deadline, while B holds a connection
            b_may_answer.set()
        return finish(call)

    monkeypatch.setattr(_CallSockets, "finish", a_cut_late)
    with client:
        with pytest.raises(AgentFailure) as info:
            client.choose(move(), TIMEOUT_S)
        outcome["thread"].join(TIMEOUT_S)
    assert info.value.kind == "timeout" and outcome["b"] == 0
    assert len(set(server.peers)) == 2  # B on a connection of its own


@pytest.mark.parametrize("url", ["http://bot:hunter2@127.0.0.1:99999/hook",  # urllib3 refuses the port
                                 "http://bot:hunter2\uff03@127.0.0.1:8080/hook",  # Python's NFKC netloc check
                                 "http://bot:hunt%E2%98%83er2@127.0.0.1:8080/hook"])  # not latin-1 for Basic auth
def test_http_a_bad_url_is_refused_without_quoting_it(url):
    with pytest.raises(ValueError) as info:
        HttpAgentClient(url, SECRET)
    assert "hunt" not in str(info.value) and "hunt" not in repr(info.value)
    assert info.value.__context__ is None  # nor chained to an error that quotes it


@pytest.mark.parametrize("shape", ["declared", "chunked"])
def test_http_an_answer_over_the_configured_cap_is_malformed(server, agent_allow, monkeypatch, shape):
    monkeypatch.setenv("LONGHOUSE_AGENT_MAX_REPLY_BYTES", "2048")
    agent_allow(f"127.0.0.1:{server.port}")
    sent = []

    def big(handler):
        pad = b'{"index": 0, "pad": "' + b"x" * 4000 + b'"}'
        if shape == "declared":
            return 200, {"Content-Length": str(len(pad))}, [pad]

        def chunks():  # 64 MiB in chunks, no length: only the engine's cap stops it
            for _ in range(16384):
                sent.append(1)
                block = b"x" * 4096
                yield b"%x\r\n" % len(block) + block + b"\r\n"
        return 200, {"Transfer-Encoding": "chunked"}, chunks()

    server.reply = big
    with make_client({"name": "big", "protocol": "http", "address": f"http://127.0.0.1:{server.port}/",
                      "secret": SECRET}) as client:
        assert client.max_reply_bytes == 2048
        refused = failure(client)
    assert refused.kind == "malformed" and "more than 2048 bytes" in refused.message
    if shape == "chunked":
        assert len(sent) < 16384  # the engine stopped reading; the agent could not send it all


def test_http_a_compressed_answer_is_malformed(asking, server):
    body = gzip.compress(b'{"index": 0}')
    server.reply = lambda h: (200, {"Content-Encoding": "gzip", "Content-Length": str(len(body))}, [body])
    with HttpAgentClient(f"http://127.0.0.1:{server.port}/", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        refused = failure(client, asking)
    assert refused.kind == "malformed" and "compressed (gzip)" in refused.message


@pytest.fixture
def raw_server():
    """A loopback server that answers every request with ``raw_server.answer`` (bytes written as
    they are, then the connection closed) and records each request's target in ``raw_server.seen``."""
    import socketserver

    class Raw(socketserver.StreamRequestHandler):
        def handle(self):
            request_line = self.rfile.readline(65537).decode("latin-1")
            length = 0
            while (line := self.rfile.readline(65537)) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            self.rfile.read(length)
            self.server.seen.append(request_line.split(" ")[1])
            self.wfile.write(self.server.answer)

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    srv = Server(("127.0.0.1", 0), Raw)
    srv.seen, srv.answer = [], b""
    srv.port = srv.server_address[1]
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(TIMEOUT_S)


def _answer(*header_lines: str, body: bytes = b'{"index": 0}') -> bytes:
    return ("HTTP/1.1 200 OK\r\n" + "".join(f"{h}\r\n" for h in header_lines) + "Connection: close\r\n\r\n").encode() + body


@pytest.mark.parametrize("headers", [
    ("X-Note no colon here", "Content-Length: 12"),  # a line that is not a header
    ("Content-Length: 12", "Content-Length: 12"),  # the length declared twice
])
def test_http_an_answer_whose_headers_do_not_parse_is_a_crash_both_ways(asking, raw_server, headers, caplog):
    # the blocking call (urllib3) would read on past both; the agent loop's (aiohttp's) refuses
    # them: a decision fails the same way however it is asked, and nothing quotes the URL's query
    raw_server.answer = _answer(*headers)
    with HttpAgentClient(f"http://127.0.0.1:{raw_server.port}/hook?token=s3cr3t-query", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{raw_server.port}")) as client:
        refused = failure(client, asking)
    assert refused.kind == "crash" and "s3cr3t-query" not in refused.message
    assert raw_server.seen == ["/hook?token=s3cr3t-query"]
    assert not [r for r in caplog.records if "s3cr3t-query" in r.getMessage()]


@pytest.mark.parametrize("headers,index", [
    ((f"X-Big: {'a' * 8200}", "Content-Length: 12"), 0),  # past aiohttp's default 8190
    ((*(f"X-H{i}: v" for i in range(97)), "Content-Length: 12"), 0),  # 99 headers, with Connection
    ((*(f"X-H{i}: v" for i in range(98)), "Content-Length: 12"), None),  # 100: past http.client's limit
])
def test_http_header_limits_are_the_same_both_ways(asking, raw_server, headers, index):
    raw_server.answer = _answer(*headers)
    with HttpAgentClient(f"http://127.0.0.1:{raw_server.port}/", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{raw_server.port}")) as client:
        if index is None:
            assert failure(client, asking).kind == "crash"
        else:
            assert asking(client).index == index


def test_http_the_target_goes_out_as_the_blocking_call_sends_it_both_ways(asking, server):
    # percent-escapes are sent as urllib3 writes them (upper-cased hex, nothing decoded), so an
    # agent that checks its raw URL (an HMAC over the query) sees the same bytes either way
    url = f"http://127.0.0.1:{server.port}/good/?token=a%2Fb%2Bc%3D&y=%7E%20z&a=%41%42&b=%2f%3f%23"
    with HttpAgentClient(url, SECRET, allow=parse_allow_list(f"127.0.0.1:{server.port}")) as client:
        assert asking(client).index == 0
    assert [path for path, _ in server.seen] == ["/good/?token=a%2Fb%2Bc%3D&y=%7E%20z&a=%41%42&b=%2F%3F%23"]


def _certificate(tmp_path, name: str) -> tuple[str, str]:
    """A self-signed certificate for ``name`` (a DNS name or an IP address; its own CA):
    ``(cert.pem, key.pem)`` paths."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=1))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(name))
                                                         if addresses.is_literal(name) else x509.DNSName(name)]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = tmp_path / f"{name}.pem", tmp_path / f"{name}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_path), str(key_path)


@pytest.fixture(params=["agent.example.org"])
def tls_server(request, server, tmp_path):
    """``server`` speaking TLS with a certificate for agent.example.org (or the name the
    parameter gives) that no public CA signed; ``tls_server.cert``: its PEM file."""
    import ssl

    cert, key = _certificate(tmp_path, request.param)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.cert = cert
    return server


def test_https_an_untrusted_certificate_is_a_crash_and_nothing_is_sent(asking, tls_server, dns):
    dns({"agent.example.org": ["127.0.0.1"]})
    with HttpAgentClient(f"https://agent.example.org:{tls_server.port}/a", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{tls_server.port}")) as client:
        refused = failure(client, asking)
    assert refused.kind == "crash" and "could not be reached" in refused.message
    assert tls_server.seen == []


def test_https_checks_the_certificate_against_the_urls_host_name(asking, tls_server, dns, monkeypatch):
    # the certificate trusted (the client's CA bundle is certifi's: here, that one file)
    monkeypatch.setattr(certifi, "where", lambda: tls_server.cert)
    dns({"agent.example.org": ["127.0.0.1"], "other.example.org": ["127.0.0.1"]})
    allow = parse_allow_list(f"127.0.0.1:{tls_server.port}")
    with HttpAgentClient(f"https://agent.example.org:{tls_server.port}/a", SECRET, allow=allow) as client:
        assert asking(client).index == 0  # connected to 127.0.0.1, checked as the name
    assert tls_server.seen == [("/a", f"agent.example.org:{tls_server.port}")]
    with HttpAgentClient(f"https://other.example.org:{tls_server.port}/a", SECRET, allow=allow) as client:
        refused = failure(client, asking)  # a certificate for another name
    assert refused.kind == "crash" and len(tls_server.seen) == 1


@pytest.mark.parametrize("tls_server", ["127.0.0.1"], indirect=True)
def test_https_at_an_ip_address_checks_the_certificate_both_ways_of_asking(asking, tls_server, monkeypatch):
    # an agent at https://127.0.0.1: asked on the desk's thread or from the agent loop, an
    # untrusted certificate is a crash before anything is sent; trusted, the call goes through
    allow = parse_allow_list(f"127.0.0.1:{tls_server.port}")
    with HttpAgentClient(f"https://127.0.0.1:{tls_server.port}/a", SECRET, allow=allow) as client:
        refused = failure(client, asking)
    assert refused.kind == "crash" and "could not be reached" in refused.message
    assert tls_server.seen == []
    monkeypatch.setattr(certifi, "where", lambda: tls_server.cert)
    with HttpAgentClient(f"https://127.0.0.1:{tls_server.port}/a", SECRET, allow=allow) as client:
        assert asking(client).index == 0
    assert tls_server.seen == [("/a", f"127.0.0.1:{tls_server.port}")]


# -- gRPC at call time --------------------------------------------------------------------------
@pytest.fixture
def grpc_server():
    """A gRPC server on loopback answering ChooseMove with ``grpc_server.answer`` (raw bytes)."""
    calls: list[str] = []
    state = {"answer": b"\x08\x01"}  # MoveChoice{index: 1}

    def choose(request: bytes, context) -> bytes:
        calls.append(context.peer())
        return state["answer"]

    with agent_method_server("ChooseMove", choose) as port:
        yield SimpleNamespace(port=port, calls=calls, state=state)


def test_grpc_loopback_outside_the_allow_list_is_never_called(grpc_server, dns):
    dns({"agent.example.org": ["127.0.0.1"]})
    for address, allow in ((f"127.0.0.1:{grpc_server.port}", "*:*"),
                           (f"agent.example.org:{grpc_server.port}", f"agent.example.org:{grpc_server.port}"),
                           (f"127.0.0.1:{grpc_server.port}", f"127.0.0.1:{grpc_server.port + 1}")):
        with GrpcAgentClient(address, SECRET, allow=parse_allow_list(allow)) as client:
            refused = failure(client)
        assert refused.kind == "crash" and "loopback address, refused unless listed" in refused.message
    assert grpc_server.calls == []


def test_grpc_connects_to_the_address_it_checked(grpc_server, dns):
    dns({"agent.example.org": ["127.0.0.1"]})
    with GrpcAgentClient(f"agent.example.org:{grpc_server.port}", SECRET,
                         allow=parse_allow_list(f"127.0.0.1:{grpc_server.port}")) as client:
        assert client.choose(move(), TIMEOUT_S).index == 1
        assert client.choose(move(), TIMEOUT_S).index == 1
    assert len(grpc_server.calls) == 2 and all("127.0.0.1" in peer for peer in grpc_server.calls)
    assert dns.calls == ["agent.example.org"] * 2  # checked again at every call


def test_grpc_an_ip_address_is_checked_at_once_and_a_name_within_the_time(grpc_server, dns, monkeypatch):
    """An IP address resolves nothing: checked in the calling thread (no pool hand-off); a name is
    looked up in a pool thread so a slow lookup cannot hold the call past its time."""
    from services.agents import client as agent_client

    handed: list[str] = []
    pool = agent_client._lookup_pool()

    class Counting:
        def submit(self, fn, *args):
            handed.append(args[0])
            return pool.submit(fn, *args)

    monkeypatch.setattr(agent_client, "_lookup_pool", lambda: Counting())
    dns({"agent.example.org": ["127.0.0.1"]})
    allow = parse_allow_list(f"127.0.0.1:{grpc_server.port}")
    for address in (f"127.0.0.1:{grpc_server.port}", f"agent.example.org:{grpc_server.port}"):
        with GrpcAgentClient(address, SECRET, allow=allow) as client:
            assert client.choose(move(), TIMEOUT_S).index == 1
    assert handed == ["agent.example.org"] and len(grpc_server.calls) == 2
    with GrpcAgentClient(f"127.0.0.1:{grpc_server.port + 1}", SECRET, allow=allow) as client:
        assert failure(client).kind == "crash"  # still checked: a port not listed is refused


def test_grpc_an_answer_over_the_cap_is_malformed(grpc_server):
    grpc_server.state["answer"] = b"\x08\x01" + b"\x12\xf0\x1f" + b"x" * 4080  # index 1 and 4 KB of a field
    with GrpcAgentClient(f"127.0.0.1:{grpc_server.port}", SECRET, max_reply_bytes=2048,
                         allow=parse_allow_list(f"127.0.0.1:{grpc_server.port}")) as client:
        refused = failure(client)
    assert refused.kind == "malformed" and "more than 2048 bytes" in refused.message


def test_clients_use_the_configured_allow_list(agent_allow, server):
    agent_allow("*:443")
    with make_client({"name": "n", "protocol": "http", "address": f"http://127.0.0.1:{server.port}/",
                      "secret": SECRET}) as client:
        assert str(client.allow) == "*:443"
        assert failure(client).kind == "crash"
    assert server.seen == []
