"""``longhouse_client`` against the live stack: a method for every route of ``/openapi.json``, a whole
game played through the event stream, the stream's resume with ``Last-Event-ID`` after a cut
connection, replays, agents, tournaments and the async client."""

from __future__ import annotations

import asyncio
import random
from urllib.parse import urlsplit

import pytest

from longhouse_client import AsyncClient, BadRequest, Client, Conflict, IllegalMove, NotFound, ROUTES, event_id, play_seat
from longhouse_client.models import CatalogGame, GameSummary, StreamMessage
from tests.support.tcp_proxy import TcpProxy

pytestmark = pytest.mark.stack


@pytest.fixture
def lh(stack):
    with Client(stack.gateway_url, operator_key=stack.operator_key, timeout=30) as client:
        yield client


def test_every_route_of_the_openapi_document_has_a_client_method(lh):
    doc = lh.openapi()
    served = {(method.upper(), path) for path, ops in doc["paths"].items() for method in ops}
    assert served == set(ROUTES), (served ^ set(ROUTES))
    assert all(callable(getattr(Client, name)) for name in ROUTES.values())


def test_a_whole_game_through_the_client_and_its_stream(lh):
    catalog = lh.catalog()
    assert {"noggin", "gnomes", "resource_hog"} <= {g.name for g in catalog.games}
    assert isinstance(lh.catalog_game("gnomes"), CatalogGame)
    game = lh.create_game("gnomes", 2, seed="sdk-1", bots={"1": "random"})
    assert set(game.invitations) == {"0"}
    seat = lh.take_seat(game.game_id, 0, game.invitations["0"])
    rng = random.Random("sdk-1")
    played = []
    summary = play_seat(lh, game.game_id, seat.token, lambda view, moves: rng.randrange(len(moves)),
                        timeout_s=300, on_move=lambda move, result: played.append(result.version))
    assert isinstance(summary, GameSummary) and summary.over and summary.state_hash
    assert summary.outcome is not None and len(summary.outcome.scores) == 2
    assert played and played == sorted(played)
    log = lh.replay(game.game_id, seat.token)
    assert [m.version for m in log] == list(range(1, summary.version + 1))
    assert all(isinstance(m, StreamMessage) and m.id == event_id(game.game_id, m.version) == f"{game.game_id}:{m.version}-0"
               and m.game_id == game.game_id for m in log)
    first = lh.view(game.game_id, version=1)
    assert first.version == 1 and first.seat is None
    assert game.game_id in {g.game_id for g in lh.all_games(game="gnomes", status="over")}
    with pytest.raises(Conflict) as info:
        lh.take_seat(game.game_id, 0, game.invitations["0"])
    assert info.value.error == "game_over"


def test_play_seat_spends_one_request_a_move_and_learns_its_turn_by_long_poll(lh, monkeypatch):
    """The new flow: each move's answer carries the seat's next legal moves and view, and between
    its turns the seat waits on /wait?until=turn; it never reads /legal-moves or /view."""
    game = lh.create_game("gnomes", 2, seed="sdk-one", bots={"1": "random"})
    token = lh.take_seat(game.game_id, 0, game.invitations["0"]).token
    sent: list[tuple[str, str, dict]] = []
    real = lh.request

    def counting(method, path, **kwargs):
        sent.append((method, path, dict(kwargs.get("params") or {})))
        return real(method, path, **kwargs)

    monkeypatch.setattr(lh, "request", counting)
    rng = random.Random("sdk-one")
    played = []
    summary = play_seat(lh, game.game_id, token, lambda view, moves: rng.randrange(len(moves)), timeout_s=300,
                        on_move=lambda move, result: played.append(result))
    assert summary.over and played
    posts = [p for m, p, _ in sent if m == "POST"]
    waits = [q for m, p, q in sent if p.endswith("/wait")]
    assert len(posts) == len(played)
    assert not [p for m, p, _ in sent if p.endswith(("/legal-moves", "/view"))]
    assert all(q.get("until") == "turn" for q in waits)
    assert len(sent) == len(posts) + len(waits) + 2  # and the summary at the start and at the end
    kept = [r for r in played if r.next is not None and r.next.legal_moves]
    assert all(r.next.seat == 0 and r.next.to_move == [0] and r.next.view for r in kept)
    assert len(waits) < len(played) + 2  # the turns the bot took in between, not one a move


def test_an_illegal_move_and_a_stale_version_raise_their_errors(lh):
    game = lh.create_game("resource_hog", 2, seed="sdk-2")
    tokens = [lh.take_seat(game.game_id, s, game.invitations[str(s)]).token for s in (0, 1)]
    legal = lh.legal_moves(game.game_id, tokens[0])
    with pytest.raises(IllegalMove) as info:
        lh.move(game.game_id, tokens[0], {"type": "done"}, legal.version)
    assert info.value.status == 422 and info.value.reason
    result = lh.move(game.game_id, tokens[0], legal.moves[0], legal.version, move_id="sdk-m1")
    again = lh.move(game.game_id, tokens[0], legal.moves[0], legal.version, move_id="sdk-m1")
    assert again.version == result.version  # the same move id answers with the first result
    with pytest.raises(Conflict) as info:
        lh.move(game.game_id, tokens[0], legal.moves[0], legal.version - 1)
    assert info.value.error == "stale_version" and info.value.current_version == result.version
    exposition = lh.metrics()  # the refused moves above, counted with their reasons
    assert 'longhouse_moves_total{game="resource_hog",outcome="refused",reason="illegal_move"}' in exposition
    with pytest.raises(NotFound):
        lh.game("0" * 16)


def test_the_stream_resumes_after_an_id_of_its_game_and_refuses_another_games(stack, lh):
    game = lh.create_game("gnomes", 2, seed="sdk-3", bots={"0": "random", "1": "random"})
    over = lh.wait(game.game_id, after=0, timeout=25, until_over=True)
    for _ in range(10):
        if over.over:
            break
        over = lh.wait(game.game_id, after=0, timeout=25, until_over=True)
    assert over.over
    first = list(lh.events(game.game_id, max_events=3))
    assert [m.version for m in first] == [1, 2, 3]
    rest = list(lh.events(game.game_id, last_event_id=first[-1].id, max_events=2))
    assert [m.version for m in rest] == [4, 5]
    other = lh.create_game("gnomes", 2, seed="sdk-3-other")
    with pytest.raises(BadRequest) as info:  # an id of the first game names none of this one's entries
        list(lh.events(other.game_id, last_event_id=first[-1].id, max_events=1))
    assert info.value.error == "wrong_game_last_event_id"



def test_the_stream_resumes_after_a_cut_connection_without_loss_or_repeat(stack, lh):
    game = lh.create_game("gnomes", 2, seed="sdk-4", bots={"1": "random"})
    token = lh.take_seat(game.game_id, 0, game.invitations["0"]).token
    rng = random.Random("sdk-4")
    url = urlsplit(stack.gateway_url)
    proxy = TcpProxy((url.hostname, url.port))
    versions: list[int] = []
    cuts = 0
    try:
        with Client(f"http://127.0.0.1:{proxy.port}") as through:
            for message in through.events(game.game_id, token):  # open until the game is over
                versions.append(message.version)
                view = lh.view(game.game_id, token)
                if view.status == "over" and message.version == view.version:
                    break
                if len(versions) in (5, 25):  # the stream is open, waiting: drop its connection
                    cuts += proxy.cut()
                if 0 in view.to_move and message.version == view.version:
                    legal = lh.legal_moves(game.game_id, token)
                    if legal.moves:
                        try:
                            lh.move(game.game_id, token, rng.choice(legal.moves), legal.version)
                        except Conflict:
                            pass
                assert len(versions) < 5000
        assert cuts >= 2 and proxy.connections >= 3
        assert versions == list(range(1, versions[-1] + 1))  # nothing lost, nothing twice
        assert b"Last-Event-ID: " in bytes(proxy.sent)
        assert lh.game(game.game_id).over
    finally:
        proxy.close()


def test_agents_and_tournaments_through_the_client(lh):
    record = lh.register_agent("sdk-agent", "http", "http://127.0.0.1:9/hook", "sdk-secret-0123456789")
    assert lh.agent(record.agent_id).name == "sdk-agent"
    assert record.agent_id in {a.agent_id for a in lh.agents().agents}
    rotated = lh.rotate_agent_secret(record.agent_id, "sdk-secret-0123456789", "sdk-secret-9876543210",
                                     overlap_s=60)
    assert rotated.previous_secret_until is not None
    assert lh.remove_agent(record.agent_id).agent_id == record.agent_id
    with pytest.raises(NotFound):
        lh.agent(record.agent_id)

    made = lh.create_tournament({"games": ["gnomes"], "format": "series", "players": 2, "matches": 1,
                                 "seed": "sdk", "participants": [{"name": "r", "kind": "random"},
                                                                 {"name": "g", "kind": "greedy"}]})
    assert made.planned == 1
    assert made.tournament_id in {t.tournament_id for t in lh.tournaments().tournaments}
    report = lh.wait_tournament(made.tournament_id, timeout_s=240)
    assert report.status == "done" and report.played == 1
    assert {row.name for row in report.standings.rows} == {"r", "g"}
    assert lh.standings_csv(made.tournament_id).splitlines()[0].startswith("rank")
    assert lh.ratings_png(made.tournament_id).startswith(b"\x89PNG")
    with pytest.raises(Conflict) as info:
        lh.cancel_tournament(made.tournament_id)
    assert info.value.error == "tournament_over"
    assert "<html" in lh.page(f"/standings/{made.tournament_id}").lower()


def test_the_async_client_creates_plays_and_streams(stack):
    async def scenario() -> list[int]:
        async with AsyncClient(stack.gateway_url, operator_key=stack.operator_key) as lh:
            assert (await lh.health()).status == "ok"
            game = await lh.create_game("resource_hog", 2, seed="sdk-async", bots={"1": "random"})
            seat = await lh.take_seat(game.game_id, 0, game.invitations["0"])
            legal = await lh.legal_moves(game.game_id, seat.token)
            await lh.move(game.game_id, seat.token, legal.moves[0], legal.version)
            return [m.version async for m in lh.events(game.game_id, seat.token, max_events=3)]

    assert asyncio.run(scenario()) == [1, 2, 3]
