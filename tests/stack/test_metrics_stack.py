"""Metrics through the whole stack (issue 27, acceptance 1): after whole games, the processes'
``longhouse_moves_total{outcome="accepted"}`` equals the moves in the games' event logs — the
gateway's for a game its clients played, the movers' for a game of bots on the bus — a refused
move is counted with its reason, and every family is exposed where it belongs: the gateway's
``GET /metrics``, each gRPC service's, the Celery worker's and each mover's metrics port."""

from __future__ import annotations

import time

import pytest
import redis
import requests

from services.bots.client import GatewayError
from services.common.metrics import AGENT_STATUSES
from services.coordinator.redis_store import RedisStore
from services.launcher.stack import mover_count
from tests.gateway.test_metrics import families_in, samples, total

pytestmark = pytest.mark.stack

MOVE_CAP = 200
"""More moves than a lap race takes (two laps of one move a seat)."""
POLL_SECONDS = 15.0
"""How long a counter a background process updates (a mover, the worker) may take to show a game."""


def scrape(url: str) -> str:
    answer = requests.get(url, timeout=10)
    assert answer.status_code == 200, answer.text[:200]
    assert answer.headers["Content-Type"].startswith("text/plain")
    return answer.text


def endpoints(stack) -> dict[str, str]:
    """name -> metrics URL of every process of the stack."""
    s = stack.settings
    urls = {"gateway": f"{stack.gateway_url}/metrics"}
    for name in ("decks", "market", "boards", "scoring", "worker"):
        urls[name] = f"http://{s.host}:{s.metrics_port(name)}/metrics"
    for k in range(mover_count()):
        urls[f"mover{k}"] = f"http://{s.host}:{s.mover_metrics_port + k}/metrics"
    return urls


def movers_total(stack, **labels: str) -> float:
    """``longhouse_moves_total`` matching ``labels``, summed over every mover."""
    return sum(total(scrape(url), "longhouse_moves_total", **labels)
               for name, url in endpoints(stack).items() if name.startswith("mover"))


def moves_in_log(stack, game_id: str) -> int:
    """The ``move`` entries of the game's event log."""
    return sum(1 for entry in RedisStore(redis.Redis.from_url(stack.redis_url)).read(game_id) if entry.kind == "move")


def poll(read, wanted: float, seconds: float = POLL_SECONDS) -> float:
    """``read()`` again until it gives ``wanted`` or ``seconds`` pass (bounded); its last value."""
    deadline = time.monotonic() + seconds
    for _ in range(int(seconds * 10) + 1):
        value = read()
        if value == wanted or time.monotonic() >= deadline:
            return value
        time.sleep(0.1)
    return read()


def play_over_http(stack) -> str:
    """A two-seat lap race played by its seats' clients through the gateway (its lap ends run
    on the Celery worker), after one illegal move; returns its id."""
    with stack.client() as client:
        created = client.create_game("lap_race", 2, seed="metrics")
        gid = created["game_id"]
        tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(2)]
        with pytest.raises(GatewayError) as refused:
            client.move(gid, tokens[0], {"type": "run", "pace": 5}, expected_version=2)
        assert refused.value.status == 422 and refused.value.error == "illegal_move"
        for _ in range(MOVE_CAP):
            game = client.game(gid)
            if game["status"] == "over":
                break
            if game["status"] == "phase":
                client.wait(gid, after=game["version"], timeout=10)
                continue
            seat = game["to_move"][0]
            client.move(gid, tokens[seat], {"type": "run", "pace": 1 + seat}, expected_version=game["version"])
        assert client.game(gid)["status"] == "over"
    return gid


def play_on_the_bus(stack) -> str:
    """A two-seat lap race of built-in bots, played by the movers; returns its id once it is over."""
    with stack.client() as client:
        gid = client.create_game("lap_race", 2, seed="metrics-bus", bots={"0": "random", "1": "random"})["game_id"]
        for _ in range(10):
            if client.wait(gid, after=0, timeout=10, until_over=True)["status"] == "over":
                break
        assert client.game(gid)["status"] == "over"
    return gid


def test_moves_total_equals_the_moves_of_the_log_and_every_family_is_exposed(stack):
    urls = endpoints(stack)
    before = {name: scrape(url) for name, url in urls.items()}
    accepted = {"game": "lap_race", "outcome": "accepted"}
    refused = {"game": "lap_race", "outcome": "refused", "reason": "illegal_move"}
    movers_before = movers_total(stack, **accepted)

    # a game the clients play: the gateway commits (and counts) every move, and the one it refused
    gid = play_over_http(stack)
    gateway = scrape(urls["gateway"])
    assert (total(gateway, "longhouse_moves_total", **accepted)
            - total(before["gateway"], "longhouse_moves_total", **accepted)) == moves_in_log(stack, gid) > 0
    assert (total(gateway, "longhouse_moves_total", **refused)
            - total(before["gateway"], "longhouse_moves_total", **refused)) == 1

    # a game of bots on the bus: the movers commit (and count) its moves
    bus = play_on_the_bus(stack)
    wanted = movers_before + moves_in_log(stack, bus)
    assert poll(lambda: movers_total(stack, **accepted), wanted) == wanted > movers_before

    # the gateway's other families: latency by route, streams open now, games in play
    routes = {labels["route"] for name, labels, _ in samples(gateway)
              if name == "longhouse_http_request_duration_seconds_count"}
    assert "/games/<game_id>/moves" in routes and not any(gid in route for route in routes)
    streams = lambda: total(scrape(urls["gateway"]), "longhouse_event_streams_open")  # noqa: E731
    # streams earlier tests left open close at the gateway's next keep-alive (15 s): let them go
    base = poll(streams, 0.0, seconds=35)
    with requests.get(f"{stack.gateway_url}/games/{gid}/stream", params={"idle_timeout": 120}, stream=True,
                      timeout=30) as stream:
        lines = stream.iter_lines()  # kept while the stream is read: a dropped iterator closes the connection
        assert next(lines).startswith(b"retry:")
        assert poll(streams, base + 1) == base + 1
    # the client went away: the gateway notices at its next write, a keep-alive (15 s) at the latest
    assert poll(streams, base, seconds=30) == base
    assert "longhouse_games_in_play" in families_in(gateway)  # both games are over: no sample needs to be in it

    # the gRPC services: call latency by method (the lap race runs on the board and score domains)
    for name, service in (("boards", "longhouse.v1.BoardService"), ("scoring", "longhouse.v1.ScoringService")):
        now = scrape(urls[name])
        calls = {labels["method"] for n, labels, _ in samples(now)
                 if n == "longhouse_grpc_server_handling_seconds_count" and labels["service"] == service}
        assert calls, name
        assert (total(now, "longhouse_grpc_server_handling_seconds_count", service=service)
                > total(before[name], "longhouse_grpc_server_handling_seconds_count", service=service))

    # the worker: the lap ends' task durations, the queues' depth, agent decisions by status
    phase_runs = {"task": "longhouse.run_phase", "state": "SUCCESS"}
    ran_before = total(before["worker"], "longhouse_celery_task_duration_seconds_count", **phase_runs)
    assert poll(lambda: total(scrape(urls["worker"]), "longhouse_celery_task_duration_seconds_count",
                              **phase_runs) > ran_before, True)
    worker = scrape(urls["worker"])
    queues = {labels["queue"] for n, labels, _ in samples(worker) if n == "longhouse_queue_depth"}
    assert {"longhouse.phases", "longhouse.agents", "longhouse.tournaments", "longhouse:ready"} <= queues
    statuses = {labels["status"] for n, labels, _ in samples(worker) if n == "longhouse_agent_decisions_total"}
    assert statuses == set(AGENT_STATUSES)
