"""The four domain services through real gRPC: health, reflection, whole games, errors.

A :class:`Table` over Redis and the gRPC ports must produce the same event log and
state hash as the embedded table for the same seed and moves (DESIGN "One rules core,
two ways to run it": that is a test, not a hope).
"""

from __future__ import annotations

import json
import uuid

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

import tests.core_games.sealed_bid  # noqa: F401 - registers the game
import tests.core_games.step_race  # noqa: F401 - registers the game
import tests.services.dice_race  # noqa: F401 - registers the game
import tests.services.guarded_step as guarded_step
from services.coordinator.grpc_ports import GrpcPort, grpc_ports
from services.coordinator.redis_store import RedisSeeds, RedisStore, key
from services.coordinator.store import GameNotFound, VersionConflict
from services.coordinator.table import Table, embedded_table
from services.rules.core import GameConfig, IllegalMove, MalformedMove, NotYourTurn, Op, events_to_json

from .conftest import SERVING, health_status, wait_for

SERVICE_NAMES = {"deck": "longhouse.v1.DeckService", "market": "longhouse.v1.MarketService",
                 "board": "longhouse.v1.BoardService", "score": "longhouse.v1.ScoringService"}
MAX_MOVES = 200


@pytest.fixture(scope="module")
def ports(stack):
    """One set of gRPC ports for the module; channels closed at the end."""
    p = grpc_ports(stack.settings)
    yield p
    for port in p.values():
        port.close()


@pytest.fixture
def hosted(stack, ports, redis_server):
    """A table over the Redis store and the gRPC ports."""
    return Table(RedisStore.from_url(redis_server.url), ports, new_id=lambda: uuid.uuid4().hex[:16])


def log_of(table: Table, game_id: str) -> list[tuple[int, str, int, str]]:
    """The event log as ``(version, kind, seat, canonical events JSON)`` rows."""
    return [(e.version, e.kind, e.seat, events_to_json(e.events)) for e in table.store.read(game_id)]


def play_to_end(table: Table, game_id: str, choose) -> int:
    """Play until the game is over, ``choose(legal_moves, seat, version)`` picking each move."""
    for _ in range(MAX_MOVES):
        summary = table.summary(game_id)
        if summary["status"] == "over":
            return summary["version"]
        rules, state, version = table.state(game_id)
        seat = summary["to_move"][0]
        move = choose(rules.legal_moves(state, seat), seat, version)
        table.play(game_id, seat, move, version, move_id=f"m{version}")
    pytest.fail(f"game {game_id} not over after {MAX_MOVES} moves")


def same_game_both_ways(hosted: Table, config: GameConfig, choose) -> str:
    """Play ``config`` with one seed on ``hosted`` and on an embedded table; compare."""
    seed = "seed-" + uuid.uuid4().hex
    gid = hosted.create(config, seed=seed)
    embedded = embedded_table(new_id=lambda: gid)
    assert embedded.create(config, seed=seed) == gid
    v_hosted = play_to_end(hosted, gid, choose)
    v_embedded = play_to_end(embedded, gid, choose)
    assert v_hosted == v_embedded
    assert log_of(hosted, gid) == log_of(embedded, gid)
    assert hosted.summary(gid) == embedded.summary(gid)
    assert hosted.summary(gid)["state_hash"] == embedded.summary(gid)["state_hash"]
    return gid


def test_every_service_reports_serving(stack):
    for domain, svc in stack.services.items():
        assert health_status(svc.address) == SERVING
        assert health_status(svc.address, SERVICE_NAMES[domain]) == SERVING


def test_reflection_lists_the_service(stack):
    for domain, svc in stack.services.items():
        with grpc.insecure_channel(svc.address) as channel:
            stub = reflection_pb2_grpc.ServerReflectionStub(channel)
            replies = list(stub.ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5))
        names = {s.name for s in replies[0].list_services_response.service}
        assert SERVICE_NAMES[domain] in names
        assert "grpc.health.v1.Health" in names


def test_step_race_over_grpc_equals_embedded(hosted):
    same_game_both_ways(hosted, GameConfig(game="step_race", players=3),
                        lambda legal, seat, version: legal[(seat + version) % len(legal)])


def test_sealed_bid_over_grpc_equals_embedded(hosted):
    same_game_both_ways(hosted, GameConfig(game="sealed_bid", players=3),
                        lambda legal, seat, version: legal[(seat * 2 + version) % len(legal)])


def test_dice_race_over_all_four_services_equals_embedded(hosted, redis_server):
    gid = same_game_both_ways(hosted, GameConfig(game="dice_race", players=3),
                              lambda legal, seat, version: legal[0])
    stored = redis_server.client.get(key(gid, "seed")).decode()
    assert stored.startswith("fernet:") and "seed-" not in stored  # encrypted at rest
    assert RedisSeeds(redis_server.client).get(gid).startswith("seed-")
    assert hosted.summary(gid)["outcome"]["winners"]


def test_deck_keeps_the_first_seed(ports, redis_server):
    gid = "seed-" + uuid.uuid4().hex[:12]
    ports["deck"].open_game(gid, "first")
    ports["deck"].open_game(gid, "second")
    assert RedisSeeds(redis_server.client).get(gid) == "first"
    assert b"first" not in redis_server.client.get(key(gid, "seed"))
    ports["deck"].open_game(gid + "x", None)
    assert len(RedisSeeds(redis_server.client).get(gid + "x")) == 64


def test_illegal_move_from_the_board_service_raises_illegal_move(stack, hosted):
    gid = hosted.create(GameConfig(game="guarded_step", players=2), seed="s")
    before = hosted.summary(gid)
    seat = before["to_move"][0]
    with pytest.raises(IllegalMove) as caught:
        hosted.play(gid, seat, {"type": "advance", "steps": 5}, before["version"])
    assert type(caught.value) is IllegalMove
    assert caught.value.reason == guarded_step.TOO_FAR
    assert hosted.summary(gid) == before
    with pytest.raises(MalformedMove, match="steps must be an integer"):
        hosted.play(gid, seat, {"type": "advance", "steps": "two"}, before["version"])
    assert hosted.store.version(gid) == before["version"]

    def logged_failure():
        for line in stack.services["board"].log().splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("event") == "rpc" and rec.get("game_id") == gid and rec.get("status") == "FAILED_PRECONDITION":
                return rec
        return None

    rec = wait_for(logged_failure, 5, "the board service's log line of the failed call")
    assert rec["method"] == "/longhouse.v1.BoardService/Apply"
    assert isinstance(rec["duration_ms"], (int, float))
    assert rec["service"] == "boards"


def test_rules_errors_keep_their_class_across_the_wire(hosted):
    gid = hosted.create(GameConfig(game="step_race", players=2), seed="s")
    summary = hosted.summary(gid)
    other = 1 - summary["to_move"][0]
    with pytest.raises(NotYourTurn):
        hosted.play(gid, other, {"type": "advance", "steps": 1}, summary["version"])


def test_unknown_game_and_future_version_map_back(stack, hosted, ports):
    with pytest.raises(GameNotFound):
        ports["board"].apply("no-such-game", 1, [], [Op("board", "advance", {"seat": 0, "steps": 1})])
    gid = hosted.create(GameConfig(game="step_race", players=2), seed="s")
    version = hosted.store.version(gid)
    with pytest.raises(VersionConflict) as caught:
        ports["board"].apply(gid, version + 5, [], [Op("board", "advance", {"seat": 0, "steps": 1})])
    assert (caught.value.expected, caught.value.actual) == (version + 5, version)


def test_operation_of_another_domain_is_refused(stack, hosted):
    gid = hosted.create(GameConfig(game="step_race", players=2), seed="s")
    port = GrpcPort("market", stack.services["market"].address, timeout=5)
    try:
        with pytest.raises(ValueError):
            port.apply(gid, 2, [], [Op("board", "advance", {"seat": 0, "steps": 1})])
    finally:
        port.close()
