"""Hidden information never reaches a client: a Noggin game's secret seed appears in no
answer, no stream and no log line, and a spectator's stream holds public events only
(DESIGN "Clients, bots and agents"; rulebook 5.1 and 7.1: mine tiles and building tiles
are drawn face down, so their order must stay unknown)."""

from __future__ import annotations

import json

import pytest
import requests

from services.bots.random_bot import RandomBot

SEED = "do-not-leak-this-seed-4f9c"
MOVES = 60
STACK_MOVES = 40


def test_the_seed_and_pile_order_never_leave_the_deck_service(stack):
    answers: list[str] = []
    with stack.client() as client:
        created = client.create_game("noggin", 2, seed=SEED)
        gid = created["game_id"]
        answers.append(json.dumps(created))
        tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(2)]
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


def _stream(gateway_url: str, gid: str, version: int, token: str | None = None) -> list[dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    text = requests.get(f"{gateway_url}/games/{gid}/stream", params={"max_events": version},
                        headers=headers, timeout=60).text
    return [json.loads(line[len("data: "):]) for line in text.splitlines() if line.startswith("data: ")]


@pytest.mark.rules("noggin:secrets/loyalty-private", "noggin:secrets/sealed-events-never-sent",
                   "noggin:secrets/spectator-public-only", "noggin:secrets/reserve-back-not-in-view")
def test_friend_or_foe_cards_and_sealed_cards_stay_hidden_through_the_stack(stack):
    """Variants and 6.4 through the gateway: in a 4-seat Friend or Foe game, each seat's SSE
    stream carries its own card and no other seat's; a spectator's carries public events only;
    no stream ever carries a sealed event (the identity of a face-down Reserve card); views
    show a seat its own card only."""
    with stack.client() as client:
        created = client.create_game("noggin", 4, seed="fof-secrets", options={"friend_or_foe": True})
        gid = created["game_id"]
        tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(4)]
        bots = [RandomBot(f"fof-{s}") for s in range(4)]
        for _ in range(MOVES):
            game = client.game(gid)
            if game["status"] == "phase":
                client.wait(gid, after=game["version"], timeout=5)
                continue
            [seat] = game["to_move"]
            bots[seat].play(client, gid, tokens[seat])
        version = client.game(gid)["version"]
        views = [client.view(gid, tokens[s])["view"] for s in range(4)]
        spectator = client.view(gid)["view"]
    cards = [v["my_loyalty"] for v in views]
    assert set(cards) <= {"noggin", "nogbad"} and spectator["my_loyalty"] is None
    streams = {s: _stream(stack.gateway_url, gid, version, tokens[s]) for s in range(4)}
    streams[None] = _stream(stack.gateway_url, gid, version)
    for seat, messages in streams.items():
        assert [m["version"] for m in messages] == list(range(1, version + 1))
        events = [e for m in messages for e in m["events"]]
        assert all(e["to"] in (None, seat) for e in events) and all(e["to"] != -1 for e in events)
        dealt = [e["data"]["card"] for e in events if e["type"] == "LoyaltyDealt"]
        assert dealt == ([] if seat is None else [cards[seat]])
        assert all(e["type"] not in ("ReserveCardSealed", "ReservePoolSealed") for e in events)



OWN_SECRET = {"gnomes": ("hand", "TravelCardDrawn"), "resource_hog": ("my_orders", "OrdersChosen")}
"""Per game: the view field that shows a seat its own secret, and the event private to it."""


def _compact(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize("game", sorted(OWN_SECRET))
def test_hands_and_orders_stay_with_their_seat_over_sse_wait_and_logs(stack, game):
    """Gnomes' hands and Resource Hog's orders through the whole stack: at every step each
    seat's secret, as its own view shows it (non-empty often, so the check can fail), is in no
    answer another seat or a spectator gets at that step (its view, ``/wait``) unless that
    client's own secret is the same; each SSE stream (with and without a token) holds exactly
    the public events and that seat's private ones; no log line holds the seed, a seat's token
    or a private event."""
    field, private = OWN_SECRET[game]
    seed = f"stack-{game}-hidden-seed-91e3"
    clients = (None, 0, 1, 2)
    checked = 0
    with stack.client() as client:
        created = client.create_game(game, 3, seed=seed)
        gid = created["game_id"]
        tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(3)]
        bots = [RandomBot(f"{game}-stack-{s}") for s in range(3)]
        for _ in range(STACK_MOVES):
            now = client.game(gid)
            if now["status"] == "over":
                break
            if now["status"] == "phase":
                client.wait(gid, after=now["version"], timeout=5)
                continue
            told = {}
            for s in clients:
                token = tokens[s] if s is not None else None
                view = client.view(gid, token)
                told[s] = (view["view"][field], _compact(view) + _compact(client.wait(gid, after=0, timeout=0)))
            for owner in range(3):
                secret = told[owner][0]
                if not secret:
                    continue
                needle = f'"{field}":{_compact(secret)}'
                assert needle in told[owner][1]  # spelled as the owner is told it
                for s in clients:
                    if s != owner and told[s][0] != secret:
                        assert needle not in told[s][1], f"seat {owner}'s {field} told to client {s}"
                        checked += 1
            seat = now["to_move"][0]
            bots[seat].play(client, gid, tokens[seat])
        version = client.game(gid)["version"]
    assert checked > 5  # seats held a secret that differed from another client's, several times
    delivered = 0
    for s in clients:
        messages = _stream(stack.gateway_url, gid, version, tokens[s] if s is not None else None)
        assert [m["version"] for m in messages] == list(range(1, version + 1))
        for m in messages:
            assert all(e["to"] in (None, s) for e in m["events"]), (s, m)
            delivered += sum(1 for e in m["events"] if e["type"] == private and e["to"] == s)
    # an EventSource sends its token in the query string: the same frames as with the header
    by_query = requests.get(f"{stack.gateway_url}/games/{gid}/stream", timeout=60,
                            params={"max_events": version, "token": tokens[0]}).text
    assert [json.loads(line[len("data: "):]) for line in by_query.splitlines() if line.startswith("data: ")] \
        == _stream(stack.gateway_url, gid, version, tokens[0])
    assert delivered > 0
    logs = "\n".join(p.read_text(errors="replace") for p in (stack.data_dir / "logs").glob("*.log"))
    assert seed not in logs and private not in logs
    assert not any(t.split(".", 1)[1] in logs for t in tokens)
