"""Hidden information never reaches a client: a Noggin game's secret seed appears in no
answer, no stream and no log line, and a spectator's stream holds public events only
(DESIGN "Clients, bots and agents"; rulebook 5.1 and 7.1: mine tiles and building tiles
are drawn face down, so their order must stay unknown)."""

from __future__ import annotations

import json

import requests

from services.bots.client import GatewayClient
from services.bots.random_bot import RandomBot

SEED = "do-not-leak-this-seed-4f9c"
MOVES = 60


def test_the_seed_and_pile_order_never_leave_the_deck_service(stack):
    answers: list[str] = []
    with GatewayClient(stack.gateway_url) as client:
        created = client.create_game("noggin", 2, seed=SEED)
        gid = created["game_id"]
        answers.append(json.dumps(created))
        tokens = [client.take_seat(gid, s) for s in range(2)]
        bots = [RandomBot(f"secret-{s}") for s in range(2)]
        for _ in range(MOVES):
            game = client.game(gid)
            answers.append(json.dumps(game))
            if game["status"] == "phase":
                client.wait(gid, after=game["version"], timeout=5)
                continue
            [seat] = game["to_move"]
            answers.append(json.dumps(client.view(gid, tokens[seat])))
            answers.append(json.dumps(client.legal_moves(gid, tokens[seat])))
            answers.append(json.dumps(bots[seat].play(client, gid, tokens[seat])))
        version = client.game(gid)["version"]
        spectator_view = client.view(gid)
    stream = requests.get(f"{stack.gateway_url}/games/{gid}/stream",
                          params={"max_events": version}, timeout=30).text
    messages = [json.loads(line[len("data: "):]) for line in stream.splitlines() if line.startswith("data: ")]
    assert [m["version"] for m in messages] == list(range(1, version + 1))
    assert all(e["to"] is None for m in messages for e in m["events"])

    everything = "\n".join(answers + [stream, json.dumps(spectator_view)])
    logs = "\n".join(p.read_text(errors="replace") for p in (stack.data_dir / "logs").glob("*.log"))
    assert SEED not in everything and SEED not in logs
    assert '"seed"' not in everything
    # face-down piles are shown as counts drawn, never as the tiles still to come
    view = spectator_view["view"]
    assert isinstance(view["mine_drawn"], int) and isinstance(view["buildings_drawn"], int)
    assert all(isinstance(n, int) for n in view["transport_piles"].values())
