"""A Game of Gnomes through the whole stack: the same seeded game played embedded and through
gateway, gRPC services, Redis and the Celery worker (the change of round, rulebook D-G)
gives the same event log and state hash; and no client sees another seat's hand or a
deck's contents (rulebook C.4, C.6, E)."""

from __future__ import annotations

import json

import requests

from services.coordinator.embedded import play_embedded
from services.bots.random_bot import RandomBot
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig

from .test_determinism import MOVE_CAP, PLAYERS, SEED, _log
from .test_determinism import _stack_game as stack_game


def _embedded_game(options: dict[str, bool]):
    table = embedded_table()
    gid = table.create(GameConfig(game="gnomes", players=PLAYERS, options=options), seed=f"gnomes-{SEED}")
    play_embedded(table, gid, [RandomBot(f"gnome-{s}") for s in range(PLAYERS)], MOVE_CAP)
    summary = table.summary(gid)
    assert summary["status"] == "over"
    return _log(table.store.read(gid)), summary["state_hash"]


def _stack_game(stack, options: dict[str, bool], spy=None):
    gid, log, state_hash, _ = stack_game(stack, "gnomes", options, "gnome", spy)
    return gid, log, state_hash


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
