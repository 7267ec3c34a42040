"""Rate limits and the games-in-play quota (gateway.limits; issue 13, acceptance 2).

A flood of moves, reads, streams and creations from one seat token, or from one client
address, is answered 429 with ``Retry-After``, while another client (another token, another
address) still plays. The limits here are tiny so each flood is a handful of requests; the
clients' addresses are set in the WSGI environ (documentation ranges, no traffic is sent), and
the set-up runs from loopback, which is exempt from per-address limits by default.
"""

from __future__ import annotations

import itertools
import re

import pytest

from gateway.app import create_app
from gateway.limits import QUOTA_KEY_PREFIX
from gateway.operators import HEADER, digest, key_id
from tests.gateway.conftest import OPERATOR_KEY

ATTACKER = "203.0.113.7"
OTHER = "198.51.100.9"
THIRD = "192.0.2.44"
OTHER_KEY = "lhop_" + "another-operator-of-the-limits-tests-000000"[:43]
"""A second operator key (the tests' clients send :data:`~tests.gateway.conftest.OPERATOR_KEY`)."""
QUOTA_OF_KEY = QUOTA_KEY_PREFIX + f"operator:{key_id(digest(OPERATOR_KEY))}"
"""The quota's sorted set of the tests' operator key."""

TINY = {
    "RATE_LIMIT_MOVES_TOKEN": "5/minute", "RATE_LIMIT_MOVES_ADDRESS": "8/minute",
    "RATE_LIMIT_READS_TOKEN": "6/minute", "RATE_LIMIT_READS_ADDRESS": "10/minute",
    "RATE_LIMIT_STREAMS_TOKEN": "3/minute", "RATE_LIMIT_STREAMS_ADDRESS": "5/minute",
    "RATE_LIMIT_CREATE_ADDRESS": "4/minute", "QUOTA_GAMES_IN_PLAY": 0,
}
_ids = itertools.count()


def limited_app(app, **overrides):
    """An app like the fixture's (same Redis, same test client class) with other limits."""
    config = {k: v for k, v in app.config.items() if not k.startswith("RATELIMIT_")}
    limited = create_app({**config, **TINY, **overrides})
    limited.test_client_class = app.test_client_class
    return limited


class Client:
    """A test client of ``app`` seen from ``address``, holding at most one seat token; it sends the
    operator key ``key`` (default: the tests' own)."""

    def __init__(self, app, address: str, token: str | None = None, key: str = OPERATOR_KEY):
        self.c = app.test_client()
        self.address = address
        self.token = token
        self.key = key

    def _kw(self, headers=None, token=True):
        h = {HEADER: self.key, **(headers or {})}
        if token and self.token:
            h["Authorization"] = f"Bearer {self.token}"
        return {"environ_base": {"REMOTE_ADDR": self.address}, "headers": h}

    def get(self, path, token=True, **kw):
        return self.c.get(path, **self._kw(kw.pop("headers", None), token), **kw)

    def post(self, path, token=True, **kw):
        return self.c.post(path, **self._kw(kw.pop("headers", None), token), **kw)

    def bid(self, game_id: str, amount: int = 0, version: int | None = None):
        if version is None:
            version = self.get(f"/games/{game_id}", token=False).json["version"]
        return self.post(f"/games/{game_id}/moves", json={
            "move_id": f"m{next(_ids)}", "expected_version": version, "move": {"type": "bid", "amount": amount}})

    def stream(self, game_id: str, token=True):
        resp = self.get(f"/games/{game_id}/stream?max_events=1", token=token, buffered=True)
        resp.close()
        return resp


def new_game(setup: Client) -> tuple[str, str, str]:
    """A 2-seat sealed-bid game made from ``setup``'s address: (game id, seat 0's token, seat 1's)."""
    resp = setup.post("/games", json={"game": "sealed_bid", "players": 2, "seed": "7"})
    assert resp.status_code == 201, resp.json
    gid = resp.json["game_id"]
    tokens = []
    for seat in (0, 1):
        claim = setup.post(f"/games/{gid}/seats/{seat}", json={"invitation": resp.json["invitations"][str(seat)]})
        assert claim.status_code == 201, claim.json
        tokens.append(claim.json["token"])
    return gid, tokens[0], tokens[1]


def assert_429(resp, code: str = "rate_limited", counted_by: str | None = None) -> int:
    """The answer is the API's JSON 429 with a Retry-After that the reason repeats; returns it."""
    assert resp.status_code == 429, (resp.status_code, resp.get_json(silent=True))
    body = resp.json
    assert set(body) == {"error", "reason", "retry_after", "request_id"} and body["error"] == code, body
    retry = resp.headers["Retry-After"]
    assert re.fullmatch(r"[1-9][0-9]*", retry), retry
    assert int(retry) == body["retry_after"]
    if code == "rate_limited":
        assert 1 <= int(retry) <= 61 and f"retry in {retry} s" in body["reason"], body
    if counted_by:
        assert f"from this {counted_by}" in body["reason"], body
    return int(retry)


def flood(send, allowed: int) -> list:
    """``allowed`` requests that must pass the limit, then one that must not: the answers."""
    answers = [send() for _ in range(allowed + 1)]
    assert all(a.status_code != 429 for a in answers[:-1]), [a.status_code for a in answers]
    return answers


def test_a_flood_from_one_seat_token_gets_429s_and_another_client_still_moves(app):
    limited = limited_app(app, RATE_LIMIT_MOVES_ADDRESS="", RATE_LIMIT_READS_ADDRESS="",
                          RATE_LIMIT_STREAMS_ADDRESS="")
    setup = Client(limited, "127.0.0.1")
    gid, t0, t1 = new_game(setup)
    attacker, other = Client(limited, ATTACKER, t0), Client(limited, OTHER, t1)

    # moves: 5 a minute for this token (stale ones count as much as good ones)
    assert_429(flood(lambda: attacker.bid(gid, version=0), 5)[-1], counted_by="seat token")
    # reads: views, legal moves and /wait share the token's 6 a minute
    reads = itertools.cycle([f"/games/{gid}/view", f"/games/{gid}/legal-moves", f"/games/{gid}/wait?after=0"])
    assert_429(flood(lambda: attacker.get(next(reads)), 6)[-1], counted_by="seat token")
    # streams: 3 opened a minute, with the header or with ?token=
    assert_429(flood(lambda: attacker.stream(gid), 3)[-1], counted_by="seat token")
    query = attacker.get(f"/games/{gid}/stream?max_events=1&token={t0}", token=False)
    assert_429(query, counted_by="seat token")
    # the limit follows the token, whatever address it comes from
    assert_429(Client(limited, THIRD, t0).bid(gid, version=0), counted_by="seat token")

    # the other seat's moves, reads and streams go through
    version = other.get(f"/games/{gid}", token=False).json["version"]
    assert other.bid(gid, 1, version).status_code == 200
    assert other.get(f"/games/{gid}/legal-moves").status_code == 200
    assert other.stream(gid).status_code == 200
    # and the flooding seat itself may still read without its token (as a spectator)
    assert attacker.get(f"/games/{gid}/view", token=False).status_code == 200


def test_a_flood_from_one_address_gets_429s_and_another_address_still_moves(app):
    limited = limited_app(app, RATE_LIMIT_MOVES_TOKEN="", RATE_LIMIT_READS_TOKEN="", RATE_LIMIT_STREAMS_TOKEN="")
    setup = Client(limited, "127.0.0.1")
    gid, t0, t1 = new_game(setup)
    gid2, t2, _ = new_game(setup)
    attacker, other = Client(limited, ATTACKER, t0), Client(limited, OTHER, t1)

    # moves: 8 a minute from this address, over two seat tokens
    tokens = itertools.cycle([(gid, t0), (gid2, t2)])

    def move():
        game, attacker.token = next(tokens)
        return attacker.bid(game, version=0)

    assert_429(flood(move, 8)[-1], counted_by="client address")
    attacker.token = None
    # reads without any token: 10 a minute from this address
    assert_429(flood(lambda: attacker.get(f"/games/{gid}"), 10)[-1], counted_by="client address")
    # streams without a token: 5 opened a minute
    assert_429(flood(lambda: attacker.stream(gid), 5)[-1], counted_by="client address")
    # creation: games, tournaments and seat claims share 4 a minute
    body = {"game": "sealed_bid", "players": 2}
    answers = flood(lambda: attacker.post("/games", json=body), 4)
    assert [a.status_code for a in answers[:-1]] == [201] * 4
    assert_429(answers[-1], counted_by="client address")
    assert_429(attacker.post("/tournaments", json={"games": ["sealed_bid"], "players": 2, "participants": [
        {"name": "a", "kind": "random"}, {"name": "b", "kind": "random"}]}), counted_by="client address")

    # another address: its moves, reads, streams and creations go through
    version = other.get(f"/games/{gid}", token=False).json["version"]
    assert other.bid(gid, 1, version).status_code == 200
    assert other.get(f"/games/{gid}/view").status_code == 200
    assert other.stream(gid).status_code == 200
    assert other.post("/games", json=body).status_code == 201
    # probes and the API description are never limited
    assert attacker.get("/healthz").status_code == 200
    assert attacker.get("/openapi.json").status_code == 200


def test_loopback_is_exempt_from_per_address_limits_by_default_but_not_from_token_limits(app):
    limited = limited_app(app, RATE_LIMIT_MOVES_TOKEN="2/minute")
    local = Client(limited, "127.0.0.1")
    gid, t0, _ = new_game(local)
    assert all(local.get(f"/games/{gid}").status_code == 200 for _ in range(15))  # address limit 10
    local.token = t0
    assert_429(flood(lambda: local.bid(gid, version=0), 2)[-1], counted_by="seat token")
    # with no exempt network, loopback is one more address
    strict = Client(limited_app(app, RATE_LIMIT_EXEMPT=""), "127.0.0.1")
    assert_429(flood(lambda: strict.get(f"/games/{gid}"), 10)[-1], counted_by="client address")


def test_x_forwarded_for_is_ignored_unless_a_proxy_hop_is_trusted(app):
    plain = limited_app(app)
    setup = Client(plain, "127.0.0.1")
    gid, _, _ = new_game(setup)
    attacker = Client(plain, ATTACKER)
    spoofed = (f"10.0.0.{i}" for i in itertools.count())
    answers = flood(lambda: attacker.get(f"/games/{gid}", headers={"X-Forwarded-For": next(spoofed)}), 10)
    assert_429(answers[-1], counted_by="client address")

    proxied = limited_app(app, TRUSTED_PROXIES=1)
    proxy = Client(proxied, "127.0.0.1")  # a reverse proxy on the same machine
    behind = {"X-Forwarded-For": f"198.51.100.200, {THIRD}"}  # the proxy appended the address it saw
    assert_429(flood(lambda: proxy.get(f"/games/{gid}", headers=behind), 10)[-1], counted_by="client address")
    assert proxy.get(f"/games/{gid}", headers={"X-Forwarded-For": OTHER}).status_code == 200
    assert proxy.get(f"/games/{gid}").status_code == 200  # no header: the proxy's own (loopback) address


def test_the_quota_bounds_games_in_play_per_operator_key_and_a_finished_game_frees_its_slot(app, redis_client):
    limited = limited_app(app, QUOTA_GAMES_IN_PLAY=2, RATE_LIMIT_CREATE_ADDRESS="",
                          OPERATOR_KEYS=[digest(OPERATOR_KEY), digest(OTHER_KEY)])
    creator = Client(limited, ATTACKER)
    body = {"game": "sealed_bid", "players": 2, "seed": "q"}
    made = [creator.post("/games", json=body), creator.post("/games", json=body, headers={"Idempotency-Key": "k1"})]
    assert [r.status_code for r in made] == [201, 201]
    refused = creator.post("/games", json=body)
    assert_429(refused, code="quota_exceeded")
    assert "2 games in play" in refused.json["reason"] and "over" in refused.json["reason"]
    assert redis_client.zcard(QUOTA_OF_KEY) == 2  # no slot leaked
    # a retry of a creation the creator holds needs no new slot; a new key does
    retry = creator.post("/games", json=body, headers={"Idempotency-Key": "k1"})
    assert retry.status_code == 201 and retry.json["game_id"] == made[1].json["game_id"]
    assert_429(creator.post("/games", json=body, headers={"Idempotency-Key": "k3"}), code="quota_exceeded")
    # the same key from another address is the same creator; another key, and loopback, are not held back
    assert_429(Client(limited, OTHER).post("/games", json=body), code="quota_exceeded")
    assert Client(limited, OTHER, key=OTHER_KEY).post("/games", json=body).status_code == 201
    assert Client(limited, "127.0.0.1").post("/games", json=body).status_code == 201

    # finish one of the creator's games (3 rounds of two sealed bids), from loopback
    gid = made[0].json["game_id"]
    seats = [Client(limited, "127.0.0.1", creator.c.post(f"/games/{gid}/seats/{s}",
                                                          json={"invitation": made[0].json["invitations"][str(s)]},
                                                          environ_base={"REMOTE_ADDR": "127.0.0.1"}).json["token"])
             for s in (0, 1)]
    while creator.get(f"/games/{gid}").json["status"] != "over":
        for seat in seats:
            assert seat.bid(gid, 0).status_code == 200
    again = creator.post("/games", json=body, headers={"Idempotency-Key": "k2"})
    assert again.status_code == 201, again.json
    assert creator.post("/games", json=body, headers={"Idempotency-Key": "k2"}).status_code == 201  # a retry
    assert_429(creator.post("/games", json=body), code="quota_exceeded")


def test_a_refused_creation_gives_its_slot_back(app, redis_client):
    limited = limited_app(app, QUOTA_GAMES_IN_PLAY=1)
    creator = Client(limited, ATTACKER)
    assert creator.post("/games", json={"game": "no_such_game", "players": 2}).status_code == 422
    assert redis_client.zcard(QUOTA_OF_KEY) == 0
    assert creator.post("/games", json={"game": "sealed_bid", "players": 2}).status_code == 201


def test_limits_can_be_switched_off_and_bad_settings_are_refused(app):
    off = Client(limited_app(app, RATE_LIMITS=False), ATTACKER)
    gid = off.post("/games", json={"game": "sealed_bid", "players": 2}).json["game_id"]
    assert all(off.get(f"/games/{gid}").status_code == 200 for _ in range(15))
    with pytest.raises(ValueError, match="RATE_LIMIT_MOVES_TOKEN"):
        limited_app(app, RATE_LIMIT_MOVES_TOKEN="lots")
    with pytest.raises(ValueError):
        limited_app(app, RATE_LIMIT_EXEMPT="not-a-network")


def test_the_openapi_document_lists_the_429s_with_retry_after(client):
    doc = client.get("/openapi.json").json
    for path, method in (("/games/{game_id}/moves", "post"), ("/games/{game_id}/view", "get"),
                         ("/games/{game_id}/legal-moves", "get"), ("/games/{game_id}", "get"),
                         ("/games/{game_id}/wait", "get"), ("/games/{game_id}/stream", "get"),
                         ("/games", "post"), ("/tournaments", "post")):
        answer = doc["paths"][path][method]["responses"]["429"]
        assert "rate_limited" in answer["description"], path
        assert answer["headers"]["Retry-After"]["schema"]["type"] == "integer"
    assert "quota_exceeded" in doc["paths"]["/games"]["post"]["responses"]["429"]["description"]
    for path in ("/healthz", "/openapi.json"):
        assert "429" not in doc["paths"][path]["get"]["responses"]


class AuditLines:
    """Stands in for :mod:`gateway.operators`' logger: keeps each audit line's fields."""

    def __init__(self):
        self.lines: list[dict] = []

    def info(self, event: str, **fields):
        if event == "audit":
            self.lines.append(fields)


@pytest.mark.parametrize("hops", [0, 1])
def test_the_limits_and_the_audit_log_see_the_same_client_address(app, redis_client, monkeypatch, hops):
    """ProxyFix (``TRUSTED_PROXIES`` hops of X-Forwarded-For) sets the request's address once: the
    creation's audit line and its per-address counter name the same client; with no trusted hop
    that is the proxy (the peer), with one the address the proxy appended."""
    from gateway import operators

    audit = AuditLines()
    monkeypatch.setattr(operators, "log", audit)
    limited = limited_app(app, TRUSTED_PROXIES=hops, RATE_LIMIT_EXEMPT="", RATE_LIMIT_CREATE_ADDRESS="100/minute")
    proxy = Client(limited, OTHER)  # the peer: a reverse proxy
    forwarded = {"X-Forwarded-For": f"10.9.9.9, {ATTACKER}"}  # a spoofed entry, then what the proxy saw
    created = proxy.post("/games", json={"game": "sealed_bid", "players": 2, "seed": "7"}, headers=forwarded)
    assert created.status_code == 201, created.json
    client = OTHER if hops == 0 else ATTACKER
    assert [line["client"] for line in audit.lines if line["action"] == "game.create"] == [client]
    counted = [k.decode() for k in redis_client.scan_iter(match="LIMITS*create:address*", count=1000)]
    assert counted and all(f"/address:{client}/" in k for k in counted), counted


def test_a_trusted_hop_without_the_header_leaves_the_peer_address(app, monkeypatch):
    from gateway import operators

    audit = AuditLines()
    monkeypatch.setattr(operators, "log", audit)
    limited = limited_app(app, TRUSTED_PROXIES=2, RATE_LIMIT_EXEMPT="")
    answer = Client(limited, "::ffff:0:1", key="lhop_wrong").post("/games", json={"game": "sealed_bid"},
                                                                   headers={"X-Forwarded-For": ATTACKER})
    assert answer.status_code == 403  # one entry for two hops: not enough, the peer's address stands
    assert [line["client"] for line in audit.lines] == ["::ffff:0:1"]


class RoundTrips:
    """Counts what the process sends Redis (each command, each pipeline: one round trip) while on."""

    def __init__(self, monkeypatch):
        import redis.connection

        self.count, self.on = 0, False
        send = redis.connection.AbstractConnection.send_packed_command

        def counted(conn, command, *args, **kwargs):
            if self.on:
                self.count += 1
            return send(conn, command, *args, **kwargs)

        monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)

    def of(self, request):
        """``request()``'s answer and the round trips it took."""
        self.count, self.on = 0, True
        try:
            answer = request()
        finally:
            self.on = False
        return answer, self.count


def version_of(redis_client, gid: str) -> int:
    return int(redis_client.hget(f"game:{{{gid}}}:meta", "version"))


@pytest.mark.parametrize("in_commit", [True, False])
def test_a_move_is_one_round_trip_and_one_over_its_limit_commits_nothing(app, redis_client, monkeypatch, in_commit):
    """A move's rate-limit counters (its token's and its address's) are counted by its commit script:
    one Redis round trip a move (three with RATE_LIMITS_IN_COMMIT off, as before). The first move
    over the limit is refused by that
    script (429, Retry-After), nothing of it committed; the next ones are counted before the view
    runs (this process knows the token is over), one round trip each, no work."""
    limited = limited_app(app, RATE_LIMIT_MOVES_TOKEN="2/minute", RATE_LIMITS_IN_COMMIT=in_commit)
    setup = Client(limited, "127.0.0.1")
    gid, t0, t1 = new_game(setup)
    seats = [Client(limited, ATTACKER, t0), Client(limited, ATTACKER, t1)]
    trips = RoundTrips(monkeypatch)
    for round_ in range(2):  # two rounds of sealed bids: each token's two moves
        for seat in seats:
            version = version_of(redis_client, gid)
            answer, n = trips.of(lambda: seat.bid(gid, 0, version))
            assert answer.status_code == 200, answer.json
            if round_ == 1:  # the first round's looked the tokens up and loaded the scripts
                assert n == (1 if in_commit else 3), n  # before: the token's and the address's counters, the commit
    version, log = version_of(redis_client, gid), redis_client.xlen(f"game:{{{gid}}}:log")
    answer, n = trips.of(lambda: seats[0].bid(gid, 0, version))  # legal, but the token's third move
    assert_429(answer, counted_by="seat token")
    # one round trip: the commit script counted, refused and told the window's end; before: the
    # counter, then the count and the time to live of the window (limits' get_window_stats)
    assert n == (1 if in_commit else 3), n
    assert version_of(redis_client, gid) == version and redis_client.xlen(f"game:{{{gid}}}:log") == log
    assert redis_client.hlen(f"game:{{{gid}}}:moves") == 4  # its move id has no result
    for _ in range(2):  # the first one also connects the limits' own client (in_commit: unused so far)
        answer, n = trips.of(lambda: seats[0].bid(gid, 0, version))
        assert_429(answer, counted_by="seat token")
    assert n == 3, n  # counted before the view, as before: the move's work is not done
    assert version_of(redis_client, gid) == version
    from gateway.auth import token_hash

    counter = f"LIMITS:LIMITER/longhouse/token:{token_hash(t0)[:32]}/moves:token/2/1/minute"
    assert int(redis_client.get(counter)) == 5 and 0 < redis_client.ttl(counter) <= 60


def test_a_refused_move_counts_and_over_the_limit_is_answered_429_whatever_its_fate(app, redis_client):
    """Every move request counts toward the limit, as when the counters were counted before the view:
    an illegal move, a stale one, a repeat answered with its first result. Over the limit the answer
    is 429, even for a move that would have been refused otherwise, and nothing is committed."""
    limited = limited_app(app, RATE_LIMIT_MOVES_TOKEN="3/minute")
    setup = Client(limited, "127.0.0.1")
    gid, t0, _ = new_game(setup)
    seat = Client(limited, ATTACKER, t0)
    version = version_of(redis_client, gid)
    assert seat.bid(gid, 99, version).status_code == 422  # over the budget: illegal
    body = {"move_id": "same", "expected_version": version, "move": {"type": "bid", "amount": 1}}
    first = seat.post(f"/games/{gid}/moves", json=body)
    assert first.status_code == 200
    again = seat.post(f"/games/{gid}/moves", json=body)  # a repeat: its first result, counted
    assert again.status_code == 200 and again.json["version"] == first.json["version"]
    assert_429(seat.post(f"/games/{gid}/moves", json=body), counted_by="seat token")
    assert_429(seat.bid(gid, 99, version + 1), counted_by="seat token")  # illegal, but over the limit first
    assert version_of(redis_client, gid) == version + 1
