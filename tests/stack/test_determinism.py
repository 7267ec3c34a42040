"""The same seeded Noggin game, played embedded and through the whole stack, gives the
same event log and the same state hash (DESIGN "One rules core, two ways to run it").

Embedded: memory store, embedded ports, phases inline, bots called directly.
Stack: the bots post through the gateway, the gateway's Table calls the four gRPC
services, the Change of Season runs on the Celery worker, the log is a Redis stream.
"""

from __future__ import annotations

import redis

from services.coordinator.embedded import play_embedded
from services.bots.random_bot import RandomBot
from services.coordinator.redis_store import RedisStore
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig, events_to_json

SEED = "determinism-7"
PLAYERS = 3
MOVE_CAP = 5000  # failure guard only; a Noggin game takes a few hundred moves


def _log(entries):
    return [(e.version, e.kind, e.seat, events_to_json(e.events)) for e in entries]


def _embedded_game():
    table = embedded_table()
    gid = table.create(GameConfig(game="noggin", players=PLAYERS), seed=SEED)
    play_embedded(table, gid, [RandomBot(f"bot-{s}") for s in range(PLAYERS)], MOVE_CAP)
    summary = table.summary(gid)
    assert summary["status"] == "over"
    return _log(table.store.read(gid)), summary["state_hash"]


def _stack_game(stack, game="noggin", options=None, bot_prefix="bot", spy=None):
    """Play one seeded game of ``game`` through the gateway with random bots posting over HTTP
    (the first seat of ``to_move`` moves, as the embedded driver does);
    ``spy(client, game_id, tokens, seat)`` is called before each move. Returns ``(game_id,
    log, state hash, store)``."""
    bots = [RandomBot(f"{bot_prefix}-{s}") for s in range(PLAYERS)]
    with stack.client() as client:
        created = client.create_game(game, PLAYERS, seed=SEED if game == "noggin" else f"{game}-{SEED}",
                                     options=options or {})
        gid = created["game_id"]
        tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(PLAYERS)]
        for _ in range(MOVE_CAP):
            status = client.game(gid)
            if status["status"] == "over":
                break
            if status["status"] == "phase":
                client.wait(gid, after=status["version"], timeout=10)
                continue
            seat = status["to_move"][0]  # several seats at once (sealed orders): one after another
            if spy is not None:
                spy(client, gid, tokens, seat)
            assert bots[seat].play(client, gid, tokens[seat]) is not None
        status = client.game(gid)
    assert status["status"] == "over"
    store = RedisStore(redis.Redis.from_url(stack.redis_url))
    return gid, _log(store.read(gid)), status["state_hash"], store


def test_embedded_and_stack_give_the_same_log_and_hash(stack):
    embedded_log, embedded_hash = _embedded_game()
    _, stack_log, stack_hash, _ = _stack_game(stack)
    assert [k for _, k, _, _ in stack_log].count("phase") == 8  # eight Changes of Season ran on Celery
    assert stack_log == embedded_log
    assert stack_hash == embedded_hash
