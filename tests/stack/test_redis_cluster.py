"""The whole stack against a three-master Redis Cluster on loopback (issue 11, acceptance 3).

The stack's game store is the cluster (``LONGHOUSE_STORE_URL=redis+cluster://...``); its own
redis-server carries only the Celery broker (Celery's Redis transport cannot use a cluster).
Whole games of every game are played through the gateway to their end: a series of each game as
``make run`` plays it (a tournament job on the worker, built-in bots on the bus, phases on
Celery), and a game of each whose bots post their moves over HTTP with seat tokens. Each must end
by the rules with the state hash the same seeds give on the rules core alone (which is what a
plain Redis gives: tests/stack/test_determinism.py), and every key of every game must live on
the master that serves the slot of the game's hash tag ``{game_id}``.
"""

from __future__ import annotations

import time
from typing import Iterator

import pytest
from redis.crc import key_slot

from services.bots.client import GatewayClient
from services.coordinator.embedded import play_embedded
from services.bots.random_bot import RandomBot
from services.common.config import Settings
from services.common.redis_client import connect
from services.coordinator.redis_store import RedisStore
from services.coordinator.table import embedded_table
from services.launcher.stack import Stack, free_port_settings
from services.rules.core import GameConfig
from services.rules.core.game import builtin_game_names
from services.tournament.runner import TournamentConfig, run_tournament_job
from services.tournament.seeds import derive_seed
from tests.conftest import TEST_AGENT_ALLOW

from .conftest import EXTRA_GAMES
from .test_determinism import MOVE_CAP, PLAYERS, SEED, _log

SERIES_SEED = "7"
SERIES_GAMES = 2
BOTS = ["random", "greedy"]
GAME_TIMEOUT_S = 300.0


@pytest.fixture(scope="module")
def cluster_stack(redis_cluster, tmp_path_factory) -> Iterator[Stack]:
    """The whole stack with its game store on the (emptied) cluster; stopped after the module."""
    for port in redis_cluster.ports:
        redis_cluster.node(port).flushall()
    data_dir = tmp_path_factory.mktemp("cluster-stack")
    settings = free_port_settings(Settings(agent_allow=TEST_AGENT_ALLOW, store_url=redis_cluster.url))
    stack = Stack(settings, data_dir, extra_env={"LONGHOUSE_EXTRA_GAMES": EXTRA_GAMES})
    stack.start()
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def operator_env(cluster_stack, monkeypatch):
    """Clients find the stack's operator key (if the stack makes one) in the usual place."""
    monkeypatch.setenv("LONGHOUSE_OPERATOR_KEY_FILE", str(cluster_stack.data_dir / "operator.key"))


def embedded_series(game: str) -> list[dict]:
    """The series of ``game`` (seeds as ``make run`` derives them) on the rules core alone:
    per game, ``{"scores", "hash"}``."""
    out = []
    for i in range(SERIES_GAMES):
        table = embedded_table()
        bots = {s: {"kind": BOTS[s % len(BOTS)], "seed": derive_seed(SERIES_SEED, i, "seat", s)}
                for s in range(PLAYERS)}
        gid = table.create(GameConfig(game=game, players=PLAYERS), seed=derive_seed(SERIES_SEED, i), bots=bots)
        summary = table.summary(gid)
        assert summary["status"] == "over"
        out.append({"scores": list(summary["outcome"]["scores"]), "hash": summary["state_hash"]})
    return out


def assert_keys_on_their_slot(cluster, game_id: str) -> int:
    """Every key naming ``{game_id}`` lives on the master of that tag's slot; returns that port."""
    port = cluster.port_of_slot(key_slot(f"{{{game_id}}}".encode()))
    held = cluster.keys_by_node(f"*{{{game_id}}}*")
    assert {f"game:{{{game_id}}}:log", f"game:{{{game_id}}}:meta"} <= set(held[port]), held
    assert not any(held[p] for p in cluster.ports if p != port), held
    return port


def test_series_of_every_game_end_by_the_rules_with_the_plain_redis_hashes(redis_cluster, cluster_stack,
                                                                           operator_env):
    for game in builtin_game_names():
        config = TournamentConfig(game=game, players=PLAYERS, games=SERIES_GAMES, seed=SERIES_SEED, bots=BOTS,
                                  parallel=SERIES_GAMES, game_timeout=GAME_TIMEOUT_S)
        report = run_tournament_job(cluster_stack.gateway_url, config)
        assert report.failed == 0, [(g.ended_by, g.error) for g in report.games]
        assert [g.ended_by for g in report.games] == ["rules"] * SERIES_GAMES
        assert [{"scores": g.final_scores, "hash": g.final_state_hash} for g in report.games] == embedded_series(game)
        for g in report.games:
            assert_keys_on_their_slot(redis_cluster, g.game_id)
    # the tournaments' own keys share their tag {t:<id>} too
    for port in redis_cluster.ports:
        for k in redis_cluster.node(port).scan_iter(match="tournament:*", count=1000):
            tag = k.decode().split("{", 1)[1].split("}", 1)[0]
            assert redis_cluster.port_of_slot(key_slot(tag.encode())) == port
    # the game data is on the cluster, none of it on the stack's own redis-server (the broker's)
    own = connect(f"redis://{cluster_stack.settings.host}:{cluster_stack.settings.redis_port}/0")
    assert not list(own.scan_iter(match="game:*")) and not own.exists("longhouse:games")
    broker = connect(cluster_stack.settings.celery_broker_url)
    assert list(broker.scan_iter(match="_kombu.binding.*"))  # Celery's queues are there


@pytest.mark.parametrize("game", builtin_game_names())
def test_bots_posting_over_http_play_a_whole_game_as_embedded(redis_cluster, cluster_stack, operator_env, game):
    seed = SEED if game == "noggin" else f"{game}-{SEED}"
    table = embedded_table()
    eid = table.create(GameConfig(game=game, players=PLAYERS), seed=seed)
    play_embedded(table, eid, [RandomBot(f"bot-{s}") for s in range(PLAYERS)], MOVE_CAP)
    assert table.summary(eid)["status"] == "over"

    bots = [RandomBot(f"bot-{s}") for s in range(PLAYERS)]
    deadline = time.monotonic() + GAME_TIMEOUT_S
    with GatewayClient(cluster_stack.gateway_url) as client:
        created = client.create_game(game, PLAYERS, seed=seed)
        gid = created["game_id"]
        tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(PLAYERS)]
        status = client.game(gid)
        for _ in range(MOVE_CAP):
            if status["status"] == "over" or time.monotonic() > deadline:
                break
            if status["status"] == "phase":  # between turns, on the Celery worker
                client.wait(gid, after=status["version"], timeout=10)
            else:  # several seats at once (sealed orders): one after another, as embedded
                seat = status["to_move"][0]
                assert bots[seat].play(client, gid, tokens[seat]) is not None
            status = client.game(gid)
        assert client.view(gid, tokens[0])["view"] is not None  # a seat token still reads its view
    assert status["status"] == "over"
    log = _log(RedisStore(connect(redis_cluster.url)).read(gid))
    assert log == _log(table.store.read(eid))
    assert "phase" in [kind for _, kind, _, _ in log]  # phases ran on the worker, against the cluster
    assert status["state_hash"] == table.summary(eid)["state_hash"]
    port = assert_keys_on_their_slot(redis_cluster, gid)
    assert redis_cluster.node(port).exists(f"game:{{{gid}}}:seats")  # the seat tokens' digests too
    # the gateway counts its rate limits in the cluster as well (one key per counter)
    assert any(redis_cluster.keys_by_node("LIMITS:*").values())
