"""A Game of Gnomes through the whole stack: the same seeded game played embedded and through
gateway, gRPC services, Redis and the Celery worker (the change of round, rulebook D-G)
gives the same event log and state hash; and no client sees another seat's hand or a
deck's contents (rulebook C.4, C.6, E)."""

from __future__ import annotations

import json

import redis
import requests

from services.bots.client import GatewayClient
from services.bots.embedded import play_embedded
from services.bots.random_bot import RandomBot
from services.coordinator.redis_store import RedisStore
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig

from .test_determinism import _log

SEED = "gnomes-determinism-3"
PLAYERS = 3
MOVE_CAP = 5000  # failure guard only; a game of random bots takes a few hundred moves


def _embedded_game(options: dict[str, bool]):
    table = embedded_table()
    gid = table.create(GameConfig(game="gnomes", players=PLAYERS, options=options), seed=SEED)
    play_embedded(table, gid, [RandomBot(f"gnome-{s}") for s in range(PLAYERS)], MOVE_CAP)
    summary = table.summary(gid)
    assert summary["status"] == "over"
    return _log(table.store.read(gid)), summary["state_hash"]


def _stack_game(stack, options: dict[str, bool], spy=None):
    bots = [RandomBot(f"gnome-{s}") for s in range(PLAYERS)]
    with GatewayClient(stack.gateway_url) as client:
        gid = client.create_game("gnomes", PLAYERS, seed=SEED, options=options)["game_id"]
        tokens = [client.take_seat(gid, s) for s in range(PLAYERS)]
        for _ in range(MOVE_CAP):
            game = client.game(gid)
            if game["status"] == "over":
                break
            if game["status"] == "phase":
                client.wait(gid, after=game["version"], timeout=10)
                continue
            [seat] = game["to_move"]
            if spy is not None:
                spy(client, gid, tokens, seat)
            assert bots[seat].play(client, gid, tokens[seat]) is not None
        game = client.game(gid)
    assert game["status"] == "over"
    store = RedisStore(redis.Redis.from_url(stack.redis_url))
    return gid, _log(store.read(gid)), game["state_hash"]


def test_gnomes_embedded_and_stack_give_the_same_log_and_hash(stack):
    """One seeded game with a random layout and variant J: byte-for-byte the same log and the
    same hash both ways; every change of round ran as a phase on the worker."""
    options = {"random_layout": True, "gem_variant": True}
    embedded_log, embedded_hash = _embedded_game(options)
    _, stack_log, stack_hash = _stack_game(stack, options)
    rounds = sum(1 for _, _, _, events in stack_log if '"RoundStarted"' in events)
    assert [k for _, k, _, _ in stack_log].count("phase") == rounds  # round 1 starts at set-up, the rest in phases
    assert '"GameEnded"' in stack_log[-1][3] or any('"GameEnded"' in e for _, _, _, e in stack_log)
    assert stack_log == embedded_log
    assert stack_hash == embedded_hash


def test_gnomes_hands_and_decks_never_reach_another_client(stack):
    """Each seat's view holds its own hand only; a spectator's stream holds public events only;
    another seat's stream never holds a scouted card; no answer names the decks' contents."""
    answers: list[str] = []
    hands: dict[int, list[str]] = {}

    def spy(client, gid, tokens, seat):
        views = [client.view(gid, t)["view"] for t in tokens]
        for s, v in enumerate(views):
            hands[s] = v["hand"]
            answers.append(json.dumps(v))
        spectator = client.view(gid)["view"]
        assert spectator["hand"] is None
        assert [p["hand_size"] for p in spectator["players"]] == [len(hands[s]) for s in range(PLAYERS)]

    gid, log, _ = _stack_game(stack, {}, spy)
    version = log[-1][0]
    text = requests.get(f"{stack.gateway_url}/games/{gid}/stream", params={"max_events": version}, timeout=60).text
    messages = [json.loads(line[len("data: "):]) for line in text.splitlines() if line.startswith("data: ")]
    assert all(e["to"] is None for m in messages for e in m["events"])
    assert not any(e["type"] == "TravelCardDrawn" for m in messages for e in m["events"])
    everything = "\n".join(answers + [text])
    assert "travel_deck" not in everything and "shop_deck" not in everything and '"secret"' not in everything
