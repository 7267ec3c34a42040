"""``longhouse_client``'s retries without a network (httpx's mock transport): ``Retry-After`` is
honoured, a move is retried by the same move id, a game creation by the same Idempotency-Key, and
a seat claim is sent once; the SSE parser reads the gateway's format."""

from __future__ import annotations

import json

import httpx
import pytest

from longhouse_client import Client, RateLimited, RetryPolicy, Unavailable
from longhouse_client.sse import parse


class Gateway:
    """A scripted gateway: answers each request with the next of ``answers``; records requests."""

    def __init__(self, *answers: httpx.Response):
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.answers.pop(0)


def client_of(gateway: Gateway, slept: list[float], **kwargs) -> Client:
    return Client("http://gateway.test", operator_key="lhop_test", transport=httpx.MockTransport(gateway),
                  sleep=slept.append, **kwargs)


MOVED = httpx.Response(200, json={"version": 8, "events": []})


def test_a_429_is_sent_again_after_its_retry_after():
    gateway = Gateway(httpx.Response(429, headers={"Retry-After": "7"}, json={"error": "rate_limited", "reason": "x"}),
                      MOVED)
    slept: list[float] = []
    result = client_of(gateway, slept).move("g1", "tok", {"type": "done"}, 7)
    assert result.version == 8 and slept == [7.0] and len(gateway.requests) == 2


def test_a_move_is_retried_after_a_503_with_the_same_move_id():
    gateway = Gateway(httpx.Response(503, json={"error": "unavailable", "reason": "x"}), MOVED)
    slept: list[float] = []
    client_of(gateway, slept).move("g1", "tok", {"type": "done"}, 7)
    ids = [json.loads(r.content)["move_id"] for r in gateway.requests]
    assert len(ids) == 2 and ids[0] == ids[1] and slept == [0.2]
    assert gateway.requests[0].headers["Authorization"] == "Bearer tok"


def test_a_dropped_connection_retries_a_game_creation_with_the_same_idempotency_key():
    calls: list[httpx.Request] = []

    def flaky(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            raise httpx.ReadError("cut", request=request)
        return httpx.Response(201, json={"game_id": "g1", "version": 2, "status": "active", "open": False,
                                         "invitations": {"0": "lhinv_x"}})
    slept: list[float] = []
    client = Client("http://gateway.test", operator_key="lhop_test", transport=httpx.MockTransport(flaky),
                    sleep=slept.append)
    game = client.create_game("gnomes", 2)
    assert game.invitations == {"0": "lhinv_x"}
    keys = [r.headers["Idempotency-Key"] for r in calls]
    assert len(keys) == 2 and keys[0] == keys[1]
    assert calls[0].headers["X-Longhouse-Operator-Key"] == "lhop_test"


def test_a_seat_claim_is_sent_once_after_a_503_but_again_after_a_429():
    slept: list[float] = []
    gateway = Gateway(httpx.Response(503, json={"error": "unavailable", "reason": "down"}))
    with pytest.raises(Unavailable):
        client_of(gateway, slept).take_seat("g1", 0, "lhinv_x")
    assert len(gateway.requests) == 1 and slept == []
    gateway = Gateway(httpx.Response(429, headers={"Retry-After": "1"}, json={"error": "rate_limited", "reason": "x"}),
                      httpx.Response(201, json={"seat": 0, "token": "g1.t"}))
    assert client_of(gateway, slept).take_seat("g1", 0, "lhinv_x").token == "g1.t"
    assert slept == [1.0]


def test_a_retry_after_beyond_the_policy_is_raised_at_once():
    gateway = Gateway(httpx.Response(429, headers={"Retry-After": "3600"},
                                     json={"error": "quota_exceeded", "reason": "50 games", "retry_after": 3600}))
    slept: list[float] = []
    with pytest.raises(RateLimited) as info:
        client_of(gateway, slept, retry=RetryPolicy(max_retry_after_s=60)).create_game("gnomes", 2)
    assert info.value.retry_after == 3600 and slept == [] and info.value.error == "quota_exceeded"


def test_the_sse_parser_reads_ids_events_data_and_skips_comments():
    text = "retry: 2000\n\nid: 1-0\nevent: commit\ndata: {\"a\":1}\n\n: keep-alive\n\nid: 2-0\nevent: commit\ndata: x\ndata: y\n\n"
    events = list(parse(text.split("\n")))
    assert [(e.id, e.event, e.data) for e in events] == [("1-0", "commit", '{"a":1}'), ("2-0", "commit", "x\ny")]
