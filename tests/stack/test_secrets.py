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


def test_no_token_invitation_key_or_agent_secret_in_any_log_error_or_report_of_a_tournament(stack, tmp_path):
    """Issue 13, acceptance 3: a whole tournament with agents (one of them failing, so strikes
    and forfeits are written up), a game with a seat played over HTTP beside an agent, and
    requests refused on purpose; then every log line of every process (the stack's and the
    agents'), every error body and every report and result file is searched for every seat
    token, invitation, operator key and agent secret the test saw or sent. None is there."""
    from services.tournament import jobs
    from tests.support.agents import AgentProcess
    from tests.stack.test_tournament_stack import wait_done

    url, operator = stack.gateway_url, stack.operator
    old_secret, new_secret, bad_secret = "old-secret-of-the-http-agent-5e1", "new-secret-of-the-http-agent-a07", \
        "not-the-secret-of-the-agent-0c9"
    wrong_key = "lhop_" + "w" * 43
    logdir = tmp_path / "agent-logs"
    logdir.mkdir()
    agents = {"good": AgentProcess("http", "good", logdir, seed="g", secret=new_secret),
              "grpc": AgentProcess("grpc", "good", logdir, seed="r", secret=old_secret),
              "crash": AgentProcess("http", "crash", logdir, seed="c", secret=old_secret)}
    errors: list[requests.Response] = []
    answers: list[str] = []

    def refused(resp: requests.Response, status: int, code: str) -> None:
        assert resp.status_code == status and resp.json()["error"] == code, resp.text
        errors.append(resp)

    try:
        ids = {}
        for name, agent in agents.items():
            resp = requests.post(f"{url}/agents", headers=operator, timeout=30, json={
                "name": f"leak-{name}", "protocol": agent.protocol, "address": agent.address, "secret": old_secret})
            assert resp.status_code == 201, resp.text
            answers.append(resp.text)
            ids[name] = resp.json()["agent_id"]
        # rotation: the HTTP agent was started with its new secret; a wrong current one is refused first
        refused(requests.post(f"{url}/agents/{ids['good']}/secret", headers=operator, timeout=30,
                              json={"current": bad_secret, "secret": new_secret}), 403, "wrong_secret")
        rotated = requests.post(f"{url}/agents/{ids['good']}/secret", headers=operator, timeout=30,
                                json={"current": old_secret, "secret": new_secret})
        assert rotated.status_code == 200, rotated.text
        answers.append(rotated.text)
        # operator keys refused, an address refused with a secret in the body
        refused(requests.post(f"{url}/tournaments", json={}, timeout=30), 401, "missing_operator_key")
        refused(requests.get(f"{url}/agents", headers={"X-Longhouse-Operator-Key": wrong_key}, timeout=30),
                403, "wrong_operator_key")
        refused(requests.post(f"{url}/agents", headers=operator, timeout=30, json={
            "name": "far", "protocol": "http", "address": "http://10.1.2.3:9/", "secret": bad_secret}),
            403, "address_not_allowed")

        # a game with seat 0 over HTTP (by invitation) and seat 1 the HTTP agent
        with stack.client() as client:
            created = client.create_game("step_race", 2, seed="leak-game",
                                         bots={"1": {"kind": "agent", "agent": ids["good"]}})
            answers.append(json.dumps(created))
            gid, invitation = created["game_id"], created["invitations"]["0"]
            refused(requests.post(f"{url}/games/{gid}/seats/0", timeout=30), 401, "missing_invitation")
            refused(requests.post(f"{url}/games/{gid}/seats/0", json={"invitation": invitation + "x"}, timeout=30),
                    403, "wrong_invitation")
            token = client.take_seat(gid, 0, invitation)
            refused(requests.post(f"{url}/games/{gid}/seats/1", json={"invitation": invitation}, timeout=30),
                    409, "seat_taken")
            refused(requests.get(f"{url}/games/{gid}/legal-moves", timeout=30,
                                 headers={"Authorization": f"Bearer {token}x"}), 401, "unknown_token")
            refused(requests.get(f"{url}/games/{gid}/stream", params={"token": token + "x"}, timeout=30),
                    401, "unknown_token")
            bot = RandomBot("leak-seat-0")
            summary = client.game(gid)
            for _ in range(200):
                if summary["status"] == "over":
                    break
                if 0 in summary["to_move"]:
                    bot.play(client, gid, token)
                else:
                    client.wait(gid, after=summary["version"], timeout=5)
                summary = client.game(gid)
            assert summary["status"] == "over", summary
            answers.append(json.dumps(summary))

        # the tournament: two good agents and a crashing one, which strikes out and forfeits
        spec = {"games": ["resource_hog"], "format": "round_robin", "players": 2, "seed": "leak-t", "parallel": 4,
                "participants": [{"name": "good", "kind": "agent", "agent": ids["good"]},
                                 {"name": "grpc", "kind": "agent", "agent": ids["grpc"]},
                                 {"name": "crash", "kind": "agent", "agent": ids["crash"]}],
                "time_control": {"move_ms": 5000, "bank_ms": 10000, "max_strikes": 2}}
        refused(requests.post(f"{url}/tournaments", headers=operator, timeout=30,
                              json={**spec, "participants": [*spec["participants"][:2],
                                                             {"name": "ghost", "kind": "agent", "agent": "nobody"}]}),
                422, "bad_tournament")
        created_t = requests.post(f"{url}/tournaments", headers=operator, json=spec, timeout=30)
        assert created_t.status_code == 201, created_t.text
        tid = created_t.json()["tournament_id"]
        doc = wait_done(url, tid)
    finally:
        for agent in agents.values():
            agent.stop()
    assert doc["played"] == doc["planned"] == 6
    rows = {r["name"]: r for r in doc["standings"]["rows"]}
    assert rows["crash"]["forfeits"] == 4 and rows["good"]["forfeits"] == rows["grpc"]["forfeits"] == 0

    # everything written: reports and files, every match's summary, listings, every log
    reports = [requests.get(f"{url}/tournaments/{tid}", timeout=30).text,
               requests.get(f"{url}/tournaments", timeout=30).text,
               requests.get(f"{url}/tournaments/{tid}/standings.csv", timeout=30).text,
               requests.get(f"{url}/games", params={"limit": 100}, timeout=30).text,
               requests.get(f"{url}/agents", headers=operator, timeout=30).text]
    reports += [requests.get(f"{url}/games/{m['game_id']}", timeout=30).text for m in doc["matches"]]
    png = requests.get(f"{url}/tournaments/{tid}/ratings.png", timeout=30).content
    files = jobs.write_outputs(doc, tmp_path / "results")
    written = [open(path, "rb").read() for path in files.values()]
    logs = [p.read_bytes() for p in (stack.data_dir / "logs").glob("*.log")]
    logs += [p.read_bytes() for p in logdir.glob("*.log")]
    assert len(logs) >= 11 and any(b'"action": "seat.forfeit"' in log for log in logs)
    assert any(b'"action": "tournament.create"' in log for log in logs)
    haystacks = {"error bodies": "\n".join(r.text for r in errors).encode(), "reports": "\n".join(reports).encode(),
                 "result files": b"\n".join([*written, png]), "logs": b"\n".join(logs),
                 "answers": "\n".join(answers).encode()}
    needles = {"operator key": stack.operator_key, "wrong operator key": wrong_key, "seat token": token,
               "seat token's secret part": token.split(".", 1)[1], "invitation": invitation,
               "invitation's secret part": invitation.split("_", 1)[1], "old agent secret": old_secret,
               "new agent secret": new_secret, "wrong agent secret": bad_secret}
    for label, needle in needles.items():
        for where, text in haystacks.items():
            if where == "answers" and label.startswith("invitation"):
                continue  # the creation answer is where the operator is shown the invitation, once
            assert needle.encode() not in text, f"{label} found in the {where}"
    assert invitation.encode() in haystacks["answers"]  # the search finds what is there
