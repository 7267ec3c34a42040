"""Rate limits over real HTTP: two gunicorn gateways on the session stack's Redis share the counts.

Two extra gateway processes (gunicorn, gevent, like the launcher's) run with tiny limits, no
exempt network and one trusted proxy hop, so each request's client address is the one its
``X-Forwarded-For`` names (as a reverse proxy in front would write it). Requests alternate
between the two processes: a flood of moves, reads, streams and creations from one token and
one address is refused with 429 and ``Retry-After`` after exactly the configured number,
whichever process got which request, while another token and address still get through. The
requests need no real game: a request is counted before its view runs (the views answer 404,
401 or 400 here, which is not what this test is about).
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

import pytest
import requests

from services.launcher.stack import http_probe
from services.launcher.supervisor import ChildSpec, Supervisor, free_port

pytestmark = pytest.mark.stack

LIMITS = {
    "LONGHOUSE_RATE_LIMIT_MOVES_TOKEN": "4/minute", "LONGHOUSE_RATE_LIMIT_MOVES_ADDRESS": "100/minute",
    "LONGHOUSE_RATE_LIMIT_READS_TOKEN": "5/minute", "LONGHOUSE_RATE_LIMIT_READS_ADDRESS": "7/minute",
    "LONGHOUSE_RATE_LIMIT_STREAMS_TOKEN": "3/minute", "LONGHOUSE_RATE_LIMIT_STREAMS_ADDRESS": "100/minute",
    "LONGHOUSE_RATE_LIMIT_CREATE_ADDRESS": "3/minute",
    "LONGHOUSE_RATE_LIMIT_EXEMPT": "", "LONGHOUSE_TRUSTED_PROXIES": "1",
}
ATTACKER, OTHER = "203.0.113.50", "198.51.100.50"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gateways(stack, tmp_path_factory):
    """URLs of two gateway processes with :data:`LIMITS` on the session stack's Redis."""
    env = {**stack.env, **LIMITS}
    urls = []
    with Supervisor(tmp_path_factory.mktemp("limited-gateways")) as sup:
        specs = []
        for name in ("limited-a", "limited-b"):
            port = free_port()
            argv = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "-b", f"127.0.0.1:{port}",
                    "--graceful-timeout", "2", "gateway.app:create_app()"]
            specs.append(ChildSpec(name, argv, http_probe(f"http://127.0.0.1:{port}/healthz"), ports=[port],
                                   env=env, cwd=str(ROOT), ready_timeout=60, stop_grace=5))
            urls.append(f"http://127.0.0.1:{port}")
        sup.start(*specs)
        yield urls


def send(urls, method, path, address, token=None, **kw):
    """One request to the next gateway in turn, as a client at ``address`` behind a proxy."""
    headers = {"X-Forwarded-For": address, **kw.pop("headers", {})}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return requests.request(method, next(urls) + path, headers=headers, timeout=10, **kw)


def flooded(urls, allowed, method, path, address, token=None, **kw):
    """``allowed`` requests that pass, then the first refused one (checked and returned)."""
    for i in range(allowed):
        resp = send(urls, method, path, address, token, **kw)
        assert resp.status_code != 429, (i, resp.status_code, resp.text)
    resp = send(urls, method, path, address, token, **kw)
    assert resp.status_code == 429, (resp.status_code, resp.text)
    body = resp.json()
    assert body["error"] == "rate_limited" and re.fullmatch(r"[1-9][0-9]?", resp.headers["Retry-After"])
    assert int(resp.headers["Retry-After"]) == body["retry_after"] <= 61
    assert f"retry in {body['retry_after']} s" in body["reason"]
    return resp


def test_floods_from_one_token_and_one_address_are_refused_across_gateway_processes(gateways):
    urls = itertools.cycle(gateways)
    game = "0123456789abcdef"  # no such game: the answers behind the limits are 404s
    token = f"{game}.flooding-token"
    move = {"move_id": "m1", "expected_version": 1, "move": {"type": "bid", "amount": 0}}

    r = flooded(urls, 4, "POST", f"/games/{game}/moves", ATTACKER, token, json=move)
    assert "seat token" in r.json()["reason"]
    r = flooded(urls, 5, "GET", f"/games/{game}/legal-moves", ATTACKER, token)
    assert "seat token" in r.json()["reason"]
    r = flooded(urls, 3, "GET", f"/games/{game}/stream?max_events=1", ATTACKER, token)
    assert "seat token" in r.json()["reason"]
    # the address's reads: the 5 that passed above count (the refused 6th stopped at the token's
    # limit), so 2 more without a token pass
    r = flooded(urls, 2, "GET", f"/games/{game}", ATTACKER)
    assert "client address" in r.json()["reason"]
    r = flooded(urls, 3, "POST", "/games", ATTACKER, json={"game": "no_such_game", "players": 2})
    assert "client address" in r.json()["reason"]

    # another token at another address is not held back by any of it
    other = f"{game}.another-token"
    assert send(urls, "POST", f"/games/{game}/moves", OTHER, other, json=move).status_code == 404
    assert send(urls, "GET", f"/games/{game}/legal-moves", OTHER, other).status_code == 404
    assert send(urls, "GET", f"/games/{game}/stream?max_events=1", OTHER, other).status_code == 404
    assert send(urls, "POST", "/games", OTHER, json={"game": "no_such_game", "players": 2}).status_code != 429
    # probes are never limited
    assert send(urls, "GET", "/healthz", ATTACKER).status_code == 200
