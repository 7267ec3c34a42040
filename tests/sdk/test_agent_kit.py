"""``longhouse_agent`` without a stack: its servers answer the engine's own clients (HTTP and gRPC)
with the function's choice, accept what the ``standardwebhooks`` library signs, refuse wrong,
stale and replayed requests; its protobuf messages are the proto's; the local runner plays whole
games with the hosted engine's payloads and counts a failing function's strikes."""

from __future__ import annotations

import base64
import json
import time

import httpx
import pytest
from standardwebhooks import Webhook

from longhouse_agent import serve
from longhouse_agent.local import play_local
from longhouse_agent.protocol import BadSignature, Replayed, Stale, Verifier, signed_headers
from longhouse_agent.wire import MESSAGES
from services.agents.client import make_client
from services.agents.protocol import MatchEnd, MatchStart, MoveRequest
from services.api import agent_pb2

SECRET = "kit-secret-0123456789abcdef"
TIMEOUT_S = 10.0


def request(n: int = 4) -> MoveRequest:
    return MoveRequest(match_id="kit", game="gnomes", seat=1, version=7, view_json='{"round":1}',
                       legal_moves_json=[json.dumps({"type": "scout", "n": i}) for i in range(n)],
                       time_left_ms=5000, bank_ms=3000)


@pytest.mark.parametrize("protocol", ["http", "grpc"])
def test_a_served_function_answers_the_engines_client(protocol):
    seen = []

    def choose(view, legal_moves, clock):
        seen.append((view, legal_moves, clock.time_left_ms, clock.move_ms))
        return len(legal_moves) - 1

    with serve(choose, protocol=protocol, secret=SECRET) as agent:
        engine = make_client({"agent_id": "k", "name": "kit", "protocol": protocol, "address": agent.address,
                              "secret": SECRET})
        with engine:
            engine.start(MatchStart(match_id="kit", game="gnomes", seat=1, players=2,
                                    time_control={"move_ms": 2000, "bank_ms": 3000, "max_strikes": 3}), TIMEOUT_S)
            assert engine.choose(request(), TIMEOUT_S).index == 3
            engine.end(MatchEnd(match_id="kit", seat=1, result_json='{"winners":[1]}'), TIMEOUT_S)
    assert seen == [({"round": 1}, [{"type": "scout", "n": i} for i in range(4)], 5000, 2000)]
    assert agent.accounts.decisions["kit"] == 1 and agent.accounts.results["kit"] == {"winners": [1]}
    assert agent.accounts.late.get("kit", 0) == 0


def test_a_request_the_standardwebhooks_library_signs_is_accepted():
    body = json.dumps(json.loads(request().model_dump_json())).encode()
    whsec = "whsec_" + base64.b64encode(SECRET.encode()).decode()
    signature = Webhook(whsec).sign("msg_lib", __import__("datetime").datetime.now(), body.decode())
    headers = {"webhook-id": "msg_lib", "webhook-timestamp": str(int(time.time())), "webhook-signature": signature}
    with serve(lambda v, m, c: 0, secret=SECRET) as agent:
        answer = httpx.post(agent.address, content=body, headers=headers, timeout=TIMEOUT_S)
        assert answer.status_code == 200 and answer.json() == {"index": 0}
        again = httpx.post(agent.address, content=body, headers=headers, timeout=TIMEOUT_S)
        assert again.status_code == 409
        wrong = signed_headers("another-secret-0123456789", body, "msg_2")
        assert httpx.post(agent.address, content=body, headers=wrong, timeout=TIMEOUT_S).status_code == 401


def test_the_verifier_takes_either_of_two_secrets_and_refuses_stale_and_replayed():
    body = b'{"type":"end"}'
    verifier = Verifier(["new-secret-0123456789", SECRET], clock=lambda: 1_800_000_000)
    verifier.verify(signed_headers(SECRET, body, "msg_a", now=1_800_000_000), body)
    verifier.verify(signed_headers("new-secret-0123456789", body, "msg_b", now=1_800_000_000), body)
    with pytest.raises(Replayed):
        verifier.verify(signed_headers(SECRET, body, "msg_a", now=1_800_000_000), body)
    with pytest.raises(Stale):
        verifier.verify(signed_headers(SECRET, body, "msg_c", now=1_800_000_000 - 301), body)
    with pytest.raises(BadSignature):
        verifier.verify(signed_headers("a-third-secret-0123456", body, "msg_d", now=1_800_000_000), body)


def test_a_function_that_fails_is_answered_500_and_the_engine_counts_a_crash():
    def broken(view, legal_moves, clock):
        raise RuntimeError("my bug")

    with serve(broken, secret=SECRET) as agent:
        with make_client({"agent_id": "k", "protocol": "http", "address": agent.address, "secret": SECRET}) as engine:
            from services.agents.client import AgentFailure

            with pytest.raises(AgentFailure) as info:
                engine.choose(request(), TIMEOUT_S)
    assert info.value.kind == "crash" and agent.accounts.errors["kit"] == 1


def test_the_runtime_messages_are_the_protos():
    sent = agent_pb2.MoveRequest(match_id="m", game="g", seat=2, version=9, view_json="{}",
                                 legal_moves_json=["{}", "{}"], time_left_ms=12, bank_ms=3)
    got = MESSAGES["MoveRequest"].FromString(sent.SerializeToString())
    assert (got.match_id, got.seat, got.version, list(got.legal_moves_json), got.time_left_ms) == ("m", 2, 9, ["{}", "{}"], 12)
    choice = agent_pb2.MoveChoice.FromString(MESSAGES["MoveChoice"](index=0).SerializeToString())
    assert choice.HasField("index") and choice.index == 0
    assert not agent_pb2.MoveChoice.FromString(MESSAGES["MoveChoice"]().SerializeToString()).HasField("index")


def test_the_runtime_batch_messages_are_the_protos():
    sent = agent_pb2.MoveRequests(requests=[agent_pb2.MoveRequest(match_id=f"m{i}", version=i) for i in range(3)])
    got = MESSAGES["MoveRequests"].FromString(sent.SerializeToString())
    assert [(r.match_id, r.version) for r in got.requests] == [("m0", 0), ("m1", 1), ("m2", 2)]
    back = agent_pb2.MoveChoices.FromString(
        MESSAGES["MoveChoices"](choices=[MESSAGES["MoveChoice"](index=2), MESSAGES["MoveChoice"]()]).SerializeToString())
    assert [(c.HasField("index"), c.index) for c in back.choices] == [(True, 2), (False, 0)]


@pytest.mark.parametrize("protocol", ["http", "grpc"])
def test_a_served_function_answers_several_decisions_in_one_call_each_failure_its_own(protocol):
    """The kit serves batches (gRPC ChooseMoves, protos/agent.proto; HTTP ``moves``): the function
    is called once a decision, each with the batch's shortest time (the reply waits for the last
    choice), and one it fails on is that decision's crash alone (as a 500 is, asked alone)."""
    from services.agents.client import AgentFailure

    times: list[int] = []

    def choose(view, legal_moves, clock):
        times.append(clock.time_left_ms)
        if view["round"] == 2:
            raise RuntimeError("my bug")
        return view["round"]

    def asked(round_: int) -> MoveRequest:
        return request().model_copy(update={"match_id": f"kit-{round_}", "view_json": f'{{"round":{round_}}}',
                                            "time_left_ms": 4000 + 500 * round_})

    got: dict[int, object] = {}
    with serve(choose, protocol=protocol, secret=SECRET) as agent:
        with make_client({"agent_id": "k", "name": "kit", "protocol": protocol, "address": agent.address,
                          "secret": SECRET}) as engine:
            import threading

            all_in = threading.Event()

            def told(round_: int):
                def done(outcome):
                    got[round_] = outcome
                    if len(got) == 3:
                        all_in.set()
                return done

            engine.choose_many_async([(asked(r), TIMEOUT_S, told(r)) for r in (1, 2, 3)])
            assert all_in.wait(TIMEOUT_S + 5), "an outcome never came"
            assert engine._batches is True
    assert got[1].index == 1 and got[3].index == 3
    assert isinstance(got[2], AgentFailure) and got[2].kind == "crash" and "RuntimeError: my bug" in got[2].message
    assert agent.accounts.decisions["kit-1"] == 1 and agent.accounts.errors["kit-2"] == 1
    assert times == [4500, 4500, 4500]


def test_the_local_runner_plays_whole_games_and_counts_strikes():
    views = []

    def first(view, legal_moves, clock):
        views.append(view)
        assert clock.time_left_ms == 12000 and clock.move_ms == 2000
        return 0

    match = play_local(first, game="resource_hog", opponents=["random"], games=2, seed="kit")
    assert len(match.games) == 2 and {g.seat for g in match.games} == {0, 1}
    assert all(g.reason != "move cap" and len(g.scores) == 2 and g.strikes == 0 for g in match.games)
    assert views and all("lands" in v for v in views)  # the seat's player view, as hosted
    assert match.summary().startswith("local match: resource_hog, 2 games vs random:")

    def wrong(view, legal_moves, clock):
        return len(legal_moves)  # never a valid index

    lost = play_local(wrong, game="gnomes", opponents=["random"], games=1, seed="kit")
    assert lost.games[0].reason == "forfeit" and lost.games[0].strikes == 4 and lost.wins == 0


@pytest.mark.parametrize("kwargs, says", [
    ({"game": "gnomes", "opponents": ["random"] * 4}, "players"),
    ({"game": "noggin", "opponents": []}, "at least one opponent"),
    ({"game": "resource_hog", "opponents": ["random"] * 4}, "players"),
    ({"game": "gnomes", "seat": 5}, "seat 5"),
    ({"game": "gnomes", "options": {"nope": True}}, "nope"),
])
def test_the_local_runner_refuses_what_the_hosted_gateway_refuses(kwargs, says):
    """A fresh user's trial: the local runner crashed inside the rules on 5 seats of Gnomes and
    played on with an unknown variant; it now makes the gateway's checks first and says what
    was wrong."""
    with pytest.raises(ValueError, match=says):
        play_local(lambda view, legal, clock: 0, **kwargs)


@pytest.mark.parametrize("secret", ["short", "x" * 257, [SECRET, "short"]])
def test_serve_refuses_a_secret_the_engine_would_not_register(secret):
    """The gateway registers secrets of 16 to 256 characters (POST /agents); an agent served
    with another would never verify a delivery, so serve says so at once (a fresh user's trial
    found it accepted)."""
    with pytest.raises(ValueError, match="16 to 256 characters"):
        serve(lambda view, legal, clock: 0, secret=secret)
