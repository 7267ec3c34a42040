"""Resource Hog through the whole stack: the same seeded game played embedded and through the
gateway, gRPC services, Redis and the Celery worker (each round's events) gives the same
event log and state hash; a seat's orders stay with it until all are revealed."""

from __future__ import annotations

import json

import requests

from services.coordinator.embedded import play_embedded
from services.bots.random_bot import RandomBot
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig

from .test_determinism import MOVE_CAP, PLAYERS, SEED, _log
from .test_determinism import _stack_game as stack_game


def test_resource_hog_embedded_and_stack_give_the_same_log_and_hash(stack):
    table = embedded_table()
    gid = table.create(GameConfig(game="resource_hog", players=PLAYERS), seed=f"resource_hog-{SEED}")
    play_embedded(table, gid, [RandomBot(f"hog-{s}") for s in range(PLAYERS)], MOVE_CAP)
    assert table.summary(gid)["status"] == "over"
    embedded_log, embedded_hash = _log(table.store.read(gid)), table.summary(gid)["state_hash"]

    orders_seen: list[tuple[int, dict]] = []

    def spy(client, game_id, tokens, seat):
        view = client.view(game_id, tokens[seat])["view"]
        if view["stage"] == "orders":
            orders_seen.append((seat, view))

    stack_gid, stack_log, stack_hash, _ = stack_game(stack, "resource_hog", None, "hog", spy)
    assert [k for _, k, _, _ in stack_log].count("phase") == 8  # eight rounds' events ran on the worker
    assert stack_log == embedded_log
    assert stack_hash == embedded_hash
    # before the reveal a seat's view holds its own orders only
    assert orders_seen and all(v["orders"] == {} for _, v in orders_seen)
    version = stack_log[-1][0]
    text = requests.get(f"{stack.gateway_url}/games/{stack_gid}/stream", params={"max_events": version},
                        timeout=60).text
    messages = [json.loads(line[len("data: "):]) for line in text.splitlines() if line.startswith("data: ")]
    assert all(e["to"] is None for m in messages for e in m["events"])
    assert not any(e["type"] == "OrdersChosen" for m in messages for e in m["events"])
